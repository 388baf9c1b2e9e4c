/**
 * The end-to-end project's setup (vitest.config.ts `setupFiles`): puppeteer's `waitForFunction` polls on a timer
 * (every 50 ms) unless a call says otherwise. Its own default polls on animation frames, and a page that renders no
 * frames (a tab behind another, a frame not yet painted on a loaded machine) never re-checks: a condition that
 * became true after the first check times out with the condition true (test/e2e/wait-polling.test.ts shows it).
 * It runs before each file; where a worker's files share its modules (vitest.config.ts's e2e-shared), puppeteer's
 * prototypes are changed by the first file only.
 */
import { Connection, Frame, type FrameWaitForFunctionOptions } from 'puppeteer-core';
import { beforeEach } from 'vitest';

type Pending = Map<number, { method: string; since: number }>;
const KEY = Symbol.for('embed-inspector:e2e-setup');
const g = globalThis as { [KEY]?: Pending };

function install(): Pending {
  type WaitForFunction = (
    this: Frame,
    fn: unknown,
    options?: FrameWaitForFunctionOptions,
    ...args: unknown[]
  ) => Promise<unknown>;
  const proto = Frame.prototype as unknown as { waitForFunction: WaitForFunction };
  const own = proto.waitForFunction;
  proto.waitForFunction = function (this: Frame, fn, options = {}, ...args) {
    return own.call(this, fn, { polling: 50, ...options }, ...args);
  };
  // A test that runs out of time says which browser calls it was still waiting for (puppeteer's CDP calls only wait
  // for `protocolTimeout`, 180 s, longer than a test's 60 s): vitest's "Test timed out" alone names no step.
  const pending: Pending = new Map();
  let calls = 0;
  type RawSend = (this: Connection, callbacks: unknown, method: string, ...rest: unknown[]) => Promise<unknown>;
  const connection = Connection.prototype as unknown as { _rawSend: RawSend };
  const rawSend = connection._rawSend;
  connection._rawSend = function (this: Connection, callbacks, method, ...rest) {
    const id = ++calls;
    pending.set(id, { method, since: performance.now() });
    const sent = rawSend.call(this, callbacks, method, ...rest);
    const done = () => pending.delete(id);
    sent.then(done, done);
    return sent;
  };
  return pending;
}

g[KEY] ??= install();
const pending = g[KEY];

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    if (!task.result?.errors?.some((e) => /timed out in/i.test(e.message ?? ''))) {
      return;
    }
    const now = performance.now();
    const waiting = [...pending.values()].map((c) => `  ${c.method}, for ${((now - c.since) / 1000).toFixed(1)} s`);
    console.error(
      `"${task.name}" ran out of time; browser calls still waiting: ${
        waiting.length ? `\n${waiting.join('\n')}` : 'none (it waited for something else)'
      }`,
    );
  });
});
