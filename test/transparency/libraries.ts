/**
 * Running one messaging library's scenario (pages/lib-<name>.html) in one browser and collecting what every
 * document of it observed: its transcript (what the library delivered, acknowledgements, results, errors,
 * in order) and the messages it received (counted, see pages/t.js).
 */
import type { Browser, Frame } from 'puppeteer-core';
import { vi } from 'vitest';
import {
  captured,
  labelledFrames,
  withPage,
  type Captured,
  type ModeBrowser,
  type Mode,
  type Observations,
} from './harness.ts';
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

/** How many marker rounds may still see messages arrive before the exchange counts as endless. */
const MAX_ROUNDS = 20;

/** Every frame of every open page that runs pages/t.js (labelled or not). */
async function documents(browser: Browser): Promise<Frame[]> {
  const out: Frame[] = [];
  for (const page of await browser.pages()) {
    for (const frame of page.frames()) {
      if (!frame.detached && (await frame.evaluate(() => !!(window as any).__t).catch(() => false))) {
        out.push(frame);
      }
    }
  }
  return out;
}

/**
 * Marker round `n` (pages/t.js, `__t.mark`): every document posts a marker to each window it exchanges messages
 * with; resolves once every marker has arrived, so everything those windows posted to each other before has too.
 */
async function markRound(browser: Browser, n: number): Promise<void> {
  const docs = await documents(browser);
  const sent = (
    await Promise.all(
      docs.map((f) => f.evaluate((k: number) => (window as any).__t.mark(k) as number, n).catch(() => 0)),
    )
  ).reduce((a, b) => a + b, 0);
  let got = 0;
  await vi
    .waitUntil(
      async () => {
        const counts = await Promise.all(
          docs.map((f) =>
            f.evaluate((k: number) => ((window as any).__t.marks.got[k] ?? 0) as number, n).catch(() => 0),
          ),
        );
        got = counts.reduce((a, b) => a + b, 0);
        return got >= sent;
      },
      { timeout: 10_000, interval: 20 },
    )
    .catch(() => {
      throw new Error(`marker round ${n}: ${got} of ${sent} markers arrived (a window without pages/t.js?)`);
    });
}

/** What every labelled document observed so far (read from outside: nothing is posted to find out). */
async function read(browser: Browser, lib: Library): Promise<Observations> {
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
  return out;
}

/**
 * What the documents observed once their exchange is over: marker rounds (`markRound`) until one in which nothing
 * new arrived anywhere, so late messages (duplicates, answers to them) are in and none is on its way.
 */
async function observedAtEnd(browser: Browser, lib: Library): Promise<Observations> {
  let before = await read(browser, lib);
  for (let n = 1; n <= MAX_ROUNDS; n++) {
    await markRound(browser, n);
    const after = await read(browser, lib);
    if (JSON.stringify(after) === JSON.stringify(before)) {
      return after;
    }
    before = after;
  }
  throw new Error(`${lib}: messages still arrived after ${MAX_ROUNDS} marker rounds`);
}

/** What every document of one library's scenario observed in one mode, and (with the extension) what it recorded. */
export async function observeLibrary(
  launched: ModeBrowser,
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
    // Then every other document of the scenario (read from outside: nothing is posted to find out). One that is
    // not done by then says so in its log, which the comparison reads.
    await vi
      .waitUntil(
        async () =>
          (
            await Promise.all(
              (
                await labelledFrames(browser)
              ).map(({ frame }) => frame.evaluate(() => (window as any).__t.done === true).catch(() => true)),
            )
          ).every(Boolean),
        { timeout: 10_000, interval: 50 },
      )
      .catch(() => {});
    const out = await observedAtEnd(browser, lib);
    out[`${lib} › uncaught page errors (host page)`] = errors;
    return { obs: out, captured: mode === 'none' ? undefined : await captured(launched, page, mode) };
  });
}
