/**
 * Reading a cross-site frame of a Chromium page through the frame's own target, not puppeteer's `Frame`.
 *
 * When cross-site frames of a page are added together, puppeteer-core (25.16) now and then keeps one of them on the
 * top page's CDP session after it moved to a process of its own: it then ignores every JavaScript context of that
 * frame, and `frame.evaluate` or `frame.waitForFunction` wait until they time out, with the frame alive and well (1
 * page in 10 with two such frames here, 7 in 10 with eight, none with one; test/e2e/frame-target.test.ts). The
 * frame's own target is always right, so these evaluate in a CDP session of their own on it.
 */
import type { Browser } from 'puppeteer-core';

type Fn<A extends unknown[], R> = (...args: A) => R;

/**
 * `use` with a CDP session of its own on the out-of-process frame whose address starts with `prefix` (an origin a
 * page has to itself), and a way to evaluate there; the session ends with it.
 */
async function withFrame<T>(
  browser: Browser,
  prefix: string,
  timeout: number,
  use: (evaluate: (expression: string) => Promise<unknown>, url: string) => Promise<T>,
): Promise<T> {
  const target = await browser
    .waitForTarget((t) => t.type() === 'other' && t.url().startsWith(prefix), { timeout })
    .catch((e: unknown) => {
      throw new Error(`no out-of-process frame at ${prefix} within ${timeout} ms (${String(e)})`);
    });
  const session = await target.createCDPSession();
  const evaluate = async (expression: string) => {
    const r = await session.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) {
      throw new Error(`in ${target.url()}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    }
    return r.result.value as unknown;
  };
  try {
    return await use(evaluate, target.url());
  } finally {
    await session.detach().catch(() => {});
  }
}

const call = <A extends unknown[]>(fn: Fn<A, unknown>, args: A) => `(${String(fn)})(...${JSON.stringify(args)})`;

/** `fn(...args)` in the main world of the cross-site frame at `prefix` (arguments and result as JSON). */
export function evaluateInFrame<A extends unknown[], R>(
  browser: Browser,
  prefix: string,
  fn: Fn<A, R>,
  ...args: A
): Promise<Awaited<R>> {
  return withFrame(browser, prefix, 10_000, (evaluate) => evaluate(call(fn, args)) as Promise<Awaited<R>>);
}

/**
 * Waits until `fn(...args)` is truthy in the cross-site frame at `prefix`, asking every 50 ms; past `timeout` it
 * throws with the last answer.
 */
export function waitInFrame<A extends unknown[]>(
  browser: Browser,
  prefix: string,
  options: { timeout?: number },
  fn: Fn<A, unknown>,
  ...args: A
): Promise<void> {
  const timeout = options.timeout ?? 10_000;
  const end = Date.now() + timeout;
  return withFrame(browser, prefix, timeout, async (evaluate, url) => {
    for (;;) {
      const last = await evaluate(call(fn, args));
      if (last) {
        return;
      }
      if (Date.now() > end) {
        throw new Error(`waited ${timeout} ms in ${url} for ${String(fn)}; last answer ${JSON.stringify(last)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  });
}
