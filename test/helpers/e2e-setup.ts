/**
 * The end-to-end project's setup (vitest.config.ts `setupFiles`): puppeteer's `waitForFunction` polls on a timer
 * (every 50 ms) unless a call says otherwise. Its own default polls on animation frames, and a page that renders no
 * frames (a tab behind another, a frame not yet painted on a loaded machine) never re-checks: a condition that
 * became true after the first check times out with the condition true (test/e2e/wait-polling.test.ts shows it).
 */
import { Frame, type FrameWaitForFunctionOptions } from 'puppeteer-core';

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
