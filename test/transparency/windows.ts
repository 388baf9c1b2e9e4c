/** Running the window-check table (window-checks.ts) in one browser and collecting what each expression gave. */
import type { Browser, Frame } from 'puppeteer-core';
import {
  captured,
  frameLabelled,
  withPage,
  type Captured,
  type ModeBrowser,
  type Mode,
  type Observations,
} from './harness.ts';
import type { Origins } from './server.ts';
import { WINDOW_CHECKS, type Check } from './window-checks.ts';

type Result = { one: string } | { multi: Record<string, string> } | { list: string[] };

/**
 * Evaluated in the frame, for a run of consecutive checks of that frame (one round trip each run): each
 * expression as an async arrow's body, in order, its value or exception described by pages/t.js.
 */
const runChecks = async (exprs: string[]): Promise<Result[]> => {
  const T = (window as any).T;
  const out: Result[] = [];
  for (const expr of exprs) {
    const code = expr.trimStart().startsWith('{') ? `(async () => ${expr})()` : `(async () => (${expr}))()`;
    try {
      const v = await (0, eval)(code);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
        out.push({ list: v.slice() });
      } else if (
        v !== null &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        Object.getPrototypeOf(v) === Object.prototype
      ) {
        const multi: Record<string, string> = {};
        for (const k of Object.keys(v)) {
          multi[k] = T.show(v[k]);
        }
        out.push({ multi });
      } else {
        out.push({ one: T.show(v) });
      }
    } catch (e) {
      out.push({ one: T.describeError(e) });
    }
  }
  return out;
};

const checkName = ([frame, expr]: Check) => `${frame}: ${expr.replace(/\s+/g, ' ')}`;

/** What every check gave in one mode, and (with the extension) what the extension recorded meanwhile. */
export async function observeWindows(
  launched: ModeBrowser,
  origins: Origins,
  mode: Mode,
  checks: Check[] = WINDOW_CHECKS,
): Promise<{ obs: Observations; captured?: Captured }> {
  const browser: Browser = launched.browser;
  return withPage(browser, async (page) => {
    await page.goto(`${origins.host}/p/win-host.html`, { waitUntil: 'load' });
    await page.evaluate(() => (window as any).setup());
    const frames = new Map<string, Frame>();
    const frameOf = async (label: string) => {
      const known = frames.get(label);
      if (known && !known.detached) {
        return known;
      }
      const f = await frameLabelled(browser, label);
      frames.set(label, f);
      return f;
    };
    for (const label of ['host', 'xo', 'gc', 'so', 'pop', 'spop']) {
      await frameOf(label);
    }
    const out: Observations = {};
    for (let i = 0; i < checks.length; ) {
      let j = i;
      while (j < checks.length && checks[j]![0] === checks[i]![0]) {
        j++;
      }
      const run = checks.slice(i, j);
      let results: Result[];
      try {
        results = await (await frameOf(run[0]![0])).evaluate(
          runChecks,
          run.map((c) => c[1]),
        );
      } catch (e) {
        results = run.map(() => ({ one: `evaluation failed: ${(e as Error).message.split('\n')[0]}` }));
      }
      run.forEach((check, k) => {
        const name = checkName(check);
        const r = results[k]!;
        if ('multi' in r) {
          for (const [key, v] of Object.entries(r.multi)) {
            out[`${name} → ${key}`] = v;
          }
        } else {
          out[name] = 'list' in r ? r.list : r.one;
        }
      });
      i = j;
    }
    return { obs: out, captured: mode === 'none' ? undefined : await captured(launched, page, mode) };
  });
}
