// Input checks for the mock API. Every failure is an HttpError 400 naming the field.
import { HttpError } from './http.mjs';

export { isIanaTimeZone } from '../shared/timezone.js';

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @param {string} message */
export const bad = (message) => new HttpError(400, message);

/** @param {unknown} v */
function describe(v) {
  if (v === null) {
    return 'null';
  }
  if (Array.isArray(v)) {
    return 'an array';
  }
  return `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}

/**
 * A path parameter that must be a positive integer.
 * @param {string} raw @param {string} name
 */
export function pathId(raw, name) {
  if (!/^\d{1,15}$/.test(raw)) {
    throw bad(`Path parameter ${name} must be a number, got "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}

/**
 * @param {unknown} body @param {string} what
 * @returns {Record<string, unknown>}
 */
export function objectBody(body, what) {
  if (!isPlainObject(body)) {
    throw bad(`${what} must be a JSON object, got ${describe(body)}`);
  }
  return body;
}

/** @param {Record<string, unknown>} o @param {string} key @param {string} [where] */
export function stringOrNull(o, key, where = 'body') {
  const v = o[key];
  if (v === undefined || v === null) {
    return v;
  }
  if (typeof v !== 'string') {
    throw bad(`${where}.${key} must be a string or null, got ${describe(v)}`);
  }
  return v;
}

/** @param {Record<string, unknown>} o @param {string} key @param {string} [where] */
export function string(o, key, where = 'body') {
  const v = o[key];
  if (typeof v !== 'string') {
    throw bad(`${where}.${key} must be a string, got ${v === undefined ? 'nothing' : describe(v)}`);
  }
  return v;
}

/** @param {Record<string, unknown>} o @param {string} key @param {[number, number]} [range] */
export function integer(o, key, range) {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw bad(`body.${key} must be an integer, got ${describe(v)}`);
  }
  if (range && (v < range[0] || v > range[1])) {
    throw bad(`body.${key} must be between ${range[0]} and ${range[1]}, got ${v}`);
  }
  return v;
}

/** @param {Record<string, unknown>} o @param {string} key */
export function boolean(o, key) {
  const v = o[key];
  if (typeof v !== 'boolean') {
    throw bad(`body.${key} must be a boolean, got ${describe(v)}`);
  }
  return v;
}

/** @template {string} T @param {Record<string, unknown>} o @param {string} key @param {readonly T[]} values @returns {T} */
export function oneOf(o, key, values) {
  const v = o[key];
  if (typeof v !== 'string' || !values.includes(/** @type {T} */ (v))) {
    throw bad(`body.${key} must be one of ${values.join(', ')}, got ${v === undefined ? 'nothing' : describe(v)}`);
  }
  return /** @type {T} */ (v);
}

/** @param {Record<string, unknown>} o @param {string} key */
export function array(o, key) {
  const v = o[key];
  if (!Array.isArray(v)) {
    throw bad(`body.${key} must be an array, got ${describe(v)}`);
  }
  return v;
}
