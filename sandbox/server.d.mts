// Types of the sandbox's programmatic API (sandbox/server.mjs), for TypeScript callers such as the tests.

export interface SandboxOptions {
  /** Port of the host site on 127.0.0.1; 0 (the default here) picks a free port. */
  hostPort?: number;
  /** Port of the tenant (served as http://localhost:<port>); 0 (the default here) picks a free port. */
  tenantPort?: number;
  /** Port of the third origin used by the third-origin fault; 0 (the default) picks a free port. */
  thirdPort?: number;
  /** Fixture file to load instead of sandbox/data/default.json. */
  data?: string;
  /** When false, logs each platform API request. Default true. */
  quiet?: boolean;
  /** Where log lines go (default: stderr). */
  log?: (line: string) => void;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:4100 (no trailing slash) */
  hostOrigin: string;
  /** e.g. http://localhost:4101 (no trailing slash) */
  tenantOrigin: string;
  /** e.g. http://127.0.0.1:40123 */
  thirdOrigin: string;
  /** The host page, `${hostOrigin}/` */
  hostUrl: string;
  /** Absolute path of the loaded fixture. */
  fixture: string;
  /** The in-memory data (mutated by the API). */
  store: { data: SandboxData; reset(): void; snapshot(): SandboxData };
  /** Back to the fixture as loaded. */
  reset(): void;
  /** A deep copy of the current in-memory data. */
  snapshot(): SandboxData;
  /** Stops the three servers; resolves when they are closed. Safe to call twice. */
  close(): Promise<void>;
}

/** The fixture format (sandbox/README.md#fixture-format); items keep any extra fields they were given. */
export interface SandboxData {
  embedTenant?: string | null;
  deployments: { id: number; name: string }[];
  users: {
    id: number;
    email: string;
    firstName?: string | null;
    picture?: string | null;
    role: 'admin' | 'member';
    permissions?: string[];
  }[];
  tokens: Record<string, number>;
  sessions: Record<string, { mode: 'signed' | 'private'; token: string; deploymentId: number; expired?: boolean }>;
  datasets: Record<string, Record<string, unknown>[]>;
  folders: Item[];
  workbooks: Item[];
  reports: Item[];
  notifications: Item[];
}

export interface Item {
  id: number;
  deploymentId: number;
  userId?: number;
  access?: Record<string, 'read' | 'edit' | 'manage'>;
  [key: string]: any;
}

export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

export function parseArgs(argv: string[]): SandboxOptions & { help?: boolean };
