/**
 * Running one messaging library's scenario (pages/lib-<name>.html) in one browser and collecting what every
 * document of it observed: its transcript (what the library delivered, acknowledgements, results, errors,
 * in order) and the messages it received (counted, see pages/t.js).
 */
import type { Launched } from '../../src/node/chromium.ts';
import { captured, labelledFrames, withPage, type Captured, type Mode, type Observations } from './harness.ts';
import type { Origins } from './server.ts';

/** The libraries, by the name of their page (pages/lib-<name>.html). */
export const LIBRARIES = [
  'post-robot',
  'framebus',
  'iframe-resizer',
  'penpal',
  'zoid',
  'postmate',
  'comlink',
  'jschannel',
] as const;
export type Library = (typeof LIBRARIES)[number];

/** After the host's scenario is done, how long late messages (duplicates, retries) still have to arrive. */
const SETTLE_MS = 400;

/** What every document of one library's scenario observed in one mode, and (with the extension) what it recorded. */
export async function observeLibrary(
  launched: Launched,
  origins: Origins,
  lib: Library,
  mode: Mode,
): Promise<{ obs: Observations; captured?: Captured }> {
  const browser = launched.browser;
  return withPage(browser, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String((e as Error).message ?? e)));
    await page.goto(`${origins.host}/p/lib-${lib}.html?role=host&label=host`, { waitUntil: 'load' });
    // Polling, not requestAnimationFrame: a popup in front stops the host tab's animation frames.
    await page
      .waitForFunction(() => (window as any).__t?.done === true, { timeout: 30_000, polling: 50 })
      .catch(() => {});
    // Then every other document of the scenario (read from outside: nothing is posted to find out).
    const end = Date.now() + 10_000;
    while (Date.now() < end) {
      const states = await Promise.all(
        (await labelledFrames(browser)).map(({ frame }) =>
          frame.evaluate(() => (window as any).__t.done === true).catch(() => true),
        ),
      );
      if (states.every(Boolean)) {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const out: Observations = {};
    const seen = new Map<string, number>();
    for (const { label, frame } of await labelledFrames(browser)) {
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      const name = `${lib} › ${label}${n > 1 ? ` #${n}` : ''}`;
      const t = await frame
        .evaluate(() => {
          const t = (window as any).__t;
          return {
            entries: t.entries.slice() as string[],
            got: { ...t.got } as Record<string, string[]>,
            raw: { ...t.rawCounts() } as Record<string, number>,
            done: t.done as boolean,
          };
        })
        .catch((e: Error) => ({
          entries: [`unreadable: ${e.message}`],
          got: {} as Record<string, string[]>,
          raw: {},
          done: false,
        }));
      out[`${name} log`] = [...t.entries, t.done ? '(done)' : '(not done)'];
      for (const sender of Object.keys(t.got).sort()) {
        out[`${name} got from ${sender}`] = t.got[sender]!;
      }
      // Keys marked `~` by a page's T.rawKey: repeated on a timer or by scheduling, compared by presence only.
      out[`${name} messages received`] = Object.entries(t.raw)
        .map(([k, c]) => (k.includes(' ~') ? k : `${c}× ${k}`))
        .sort();
    }
    out[`${lib} › uncaught page errors (host page)`] = errors;
    return { obs: out, captured: mode === 'none' ? undefined : await captured(launched, page, mode) };
  });
}
