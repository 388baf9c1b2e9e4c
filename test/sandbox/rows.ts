// Table-driven API checks against a running sandbox: each row is a request, the expected status, and what the
// state must look like afterwards. Shared by the api*.test.ts files.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxData } from '../../sandbox/server.mjs';
import { send, type Req, type Res } from './http.ts';

/** Starts one sandbox for the calling test file and resets its data before each test. */
export function useSandbox(): () => Sandbox {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ hostPort: 0, tenantPort: 0 });
  });
  afterAll(() => sb?.close());
  beforeEach(() => sb.reset());
  return () => sb;
}

export interface Row extends Req {
  name: string;
  status: number;
  /** Requests sent first (their results are not checked). */
  before?: Req[];
  /** Checks on the response and the state afterwards. Rows without it that fail must leave the state unchanged. */
  after?: (res: Res, state: SandboxData, before: SandboxData) => void;
}

/** Sends a row's requests; errors must carry `{error: {status, message}}`. */
export async function runRow(sb: Sandbox, row: Row) {
  for (const pre of row.before ?? []) {
    await send(sb.tenantOrigin, pre);
  }
  const before = sb.snapshot();
  const res = await send(sb.tenantOrigin, row);
  expect(res.status, `${row.name}: ${res.text.slice(0, 300)}`).toBe(row.status);
  if (res.status >= 400) {
    expect(res.body?.error?.status).toBe(res.status);
    expect(typeof res.body?.error?.message).toBe('string');
    expect(res.body.error.message.length).toBeGreaterThan(5);
  }
  const state = sb.snapshot();
  if (row.after) {
    row.after(res, state, before);
  } else if (res.status >= 400) {
    expect(state).toEqual(before);
  }
}

/** `it.each` input: [name, row]. */
export const cases = (rows: Row[]) => rows.map((r) => [r.name, r] as const);
