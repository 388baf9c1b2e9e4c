// In-memory data of the mock platform API, loaded from a JSON fixture (format: sandbox/README.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_FIXTURE = fileURLToPath(new URL('../data/default.json', import.meta.url));

/** Access levels on one item, weakest first. */
const LEVELS = ['none', 'read', 'edit', 'manage'];

/**
 * @typedef {{id:number, email:string, firstName?:string|null, picture?:string|null, role:'admin'|'member', permissions?:string[]}} User
 * @typedef {{id:number, deploymentId:number, userId:number, access?:Record<string,string>, [k:string]:any}} Item
 * @typedef {{embedTenant?:string|null, deployments:{id:number,name:string}[], users:User[], tokens:Record<string,number>,
 *   sessions:Record<string,{mode:'signed'|'private', token:string, deploymentId:number, expired?:boolean}>,
 *   datasets:Record<string, Record<string, unknown>[]>, folders:Item[], workbooks:Item[], reports:Item[], notifications:Item[]}} Fixture
 */

/**
 * Reads and checks a fixture file. Throws an Error with a readable message when it is unusable.
 * @param {string} file
 * @returns {Fixture}
 */
export function loadFixture(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixture ${file}: ${/** @type {Error} */ (err).message}`);
  }
  for (const key of ['deployments', 'users', 'folders', 'workbooks', 'reports', 'notifications']) {
    if (!Array.isArray(data[key])) {
      throw new Error(`fixture ${file}: "${key}" must be an array`);
    }
  }
  for (const key of ['tokens', 'sessions']) {
    if (!data[key] || typeof data[key] !== 'object') {
      throw new Error(`fixture ${file}: "${key}" must be an object`);
    }
  }
  data.datasets ??= {};
  return data;
}

export class Store {
  /** @param {Fixture} fixture */
  constructor(fixture) {
    this.fixture = fixture;
    this.reset();
  }

  /** Back to the fixture as loaded (tests call it between rows). */
  reset() {
    /** @type {Fixture} */
    this.data = structuredClone(this.fixture);
  }

  /** A deep copy of the current state, for tests and debugging. */
  snapshot() {
    return structuredClone(this.data);
  }

  /** @param {string | undefined} token @returns {User | undefined} */
  userForToken(token) {
    if (!token || !Object.hasOwn(this.data.tokens, token)) {
      return undefined;
    }
    return this.user(this.data.tokens[token]);
  }

  /** @param {number | null | undefined} id */
  user(id) {
    return this.data.users.find((u) => u.id === id);
  }

  /** @param {number} id */
  deployment(id) {
    return this.data.deployments.find((d) => d.id === id);
  }

  /**
   * @param {'folders'|'workbooks'|'reports'|'notifications'} kind
   * @param {number} deploymentId
   * @param {number} id
   * @returns {Item | undefined} only when the item belongs to that deployment
   */
  find(kind, deploymentId, id) {
    return this.data[kind].find((x) => x.id === id && x.deploymentId === deploymentId);
  }

  /** @param {User} user */
  isAdmin(user) {
    return user.role === 'admin';
  }

  /** @param {User} user @param {string} permission */
  hasPermission(user, permission) {
    return this.isAdmin(user) || (user.permissions ?? []).some((p) => p === permission || p === 'All');
  }

  /**
   * Access level of a user on an item: admins and the owner manage; otherwise the item's `access` map.
   * @param {User} user @param {Item} item @returns {'none'|'read'|'edit'|'manage'}
   */
  accessLevel(user, item) {
    if (this.isAdmin(user) || item.userId === user.id) {
      return 'manage';
    }
    const level = item.access?.[String(user.id)];
    return level !== undefined && LEVELS.includes(level) ? /** @type {any} */ (level) : 'none';
  }

  /** @param {User} user @param {Item} item @param {'read'|'edit'|'manage'} needed */
  can(user, item, needed) {
    return LEVELS.indexOf(this.accessLevel(user, item)) >= LEVELS.indexOf(needed);
  }

  /**
   * Path of folders from the root down to `folderId` (inclusive).
   * @param {number} deploymentId @param {number | null | undefined} folderId
   * @returns {{id:number, name:string}[]}
   */
  folderPath(deploymentId, folderId) {
    const path = [];
    const seen = new Set();
    let current = folderId == null ? undefined : this.find('folders', deploymentId, folderId);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      path.unshift({ id: current.id, name: current.name });
      current = current.parentId == null ? undefined : this.find('folders', deploymentId, current.parentId);
    }
    return path;
  }

  /** True when `folderId` is `ancestorId` or lies below it. @param {number} deploymentId @param {number} folderId @param {number} ancestorId */
  isSelfOrDescendant(deploymentId, folderId, ancestorId) {
    return this.folderPath(deploymentId, folderId).some((f) => f.id === ancestorId);
  }
}
