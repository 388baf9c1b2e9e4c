/**
 * The `embed` handle of the test libraries (`embed-inspector/playwright`, `embed-inspector/puppeteer`) and of
 * `record --script`: what the extension captured in one tab, read and driven through its automation API
 * (`globalThis.embedInspector` in the service worker; docs/automation-api.md). No browser driver is imported
 * here: each library hands in how to evaluate a function in the worker, so Playwright and puppeteer share it.
 *
 * Every read settles first (each frame hands over what it holds), so a test sees what the page did before the
 * call, never a guess of when the frame's batching ends; reads stream the log (log-reader.ts), so a busy page's
 * long log costs time in proportion, never a deadline of ours. The only deadline is the caller's (`until`: a
 * Playwright test's own time), and a wait or read it ends says which call it ended and what it had read.
 */
import type { ClassifiedRecord, TabState } from '../shared/messages.ts';
import type { CaptureFile, RecordKind } from '../protocol/record.ts';
import { redactCapture, redactString } from '../protocol/redact.ts';
import { inert } from '../protocol/inert.ts';
import {
  describeRecords,
  issuesOf,
  LISTED_RECORDS,
  timelineText,
  type FoundIssue,
  type IssueQuery,
} from './describe.ts';
import { LogReader, settleNote, type Evaluate, type ReadResult, type Settled } from './log-reader.ts';
import type { LogQuery } from './worker-read.ts';

export { describeIssues, describeRecords, issuesOf, type FoundIssue, type IssueQuery } from './describe.ts';
export type { Evaluate } from './log-reader.ts';

/** What a test may set: the capture scope (`setCapture`) and a tenant origin set by hand. */
export interface EmbedOptions {
  /** Origins captured (`scheme://host[:port]`), or 'all' (the default). */
  sites?: 'all' | string[];
  /** `full` (the default: posts with their target origin, and deliveries) or `receive-only`. */
  mode?: 'full' | 'receive-only';
  /** The tenant origin, when it cannot be inferred from the embed's `ready` or its `/embed/` address. */
  tenantOrigin?: string;
}

export interface RecordQuery {
  /** One type or several (`svc:event:ready`). */
  type?: string | string[];
  kind?: RecordKind;
  direction?: 'event' | 'action';
  surface?: string;
  /** Include frame navigation records (left out by default). */
  navigation?: boolean;
  /** Include other libraries' and extensions' messages (left out by default). */
  foreign?: boolean;
}

export interface WaitOptions {
  /** ms; default 10,000. */
  timeout?: number;
  surface?: string;
  /**
   * `receive` (the default): a delivery, the message as the receiving frame got it (a post the browser dropped
   * never counts); `post`: the postMessage call, delivered or not.
   */
  kind?: RecordKind;
}

/** A message as a test writes it: a full envelope, or `{ type, payload }` that `send`/`emit` complete. */
export interface Outgoing {
  type: string;
  payload?: unknown;
  [field: string]: unknown;
}

/** How an `Embed` reaches the tab, and the caller's limits. */
export interface EmbedHandleOptions {
  evaluate: Evaluate;
  tabId: () => Promise<number>;
  /** When waits and reads give up (epoch ms): a Playwright test's own time. Default: never. */
  until?: () => number;
  /** More time past `until` to read what a failure message lists (ms; default 0). */
  grace?: number;
  /** How each call runs (Playwright reports it as a step of the test, named after the call). */
  step?: <T>(title: string, body: () => Promise<T>) => Promise<T>;
}

type Api = {
  state(tabId: number): Promise<TabState>;
  clear(tabId: number): Promise<void>;
  send(tabId: number, message: unknown, options?: { frameUrl?: string }): Promise<void>;
  setTenantOrigin(tabId: number, origin: string | null): Promise<TabState>;
  setCapture(setting: unknown): Promise<unknown>;
};

export class EmbedTimeoutError extends Error {
  override name = 'EmbedTimeoutError';
}

/** Complete a message a test wrote as `{ type, payload }` into the protocol's envelope. */
function envelope(m: Outgoing, direction: 'event' | 'action', surface?: string): Record<string, unknown> {
  if (!m || typeof m !== 'object' || typeof m.type !== 'string') {
    throw new TypeError(`embed.${direction === 'action' ? 'send' : 'emit'}: a message { type, payload } is expected`);
  }
  if ('source' in m) {
    return m; // a whole envelope, sent as written (tests of invalid messages)
  }
  const out: Record<string, unknown> = {
    source: 'svc-embed',
    direction,
    type: m.type,
    payload: m.payload ?? {},
    timestamp: Date.now(),
  };
  if (direction === 'event') {
    out.surface = (m.surface as string | undefined) ?? surface ?? 'dashboard';
  }
  return out;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A value as a call's argument is written (`'svc:event:ready', { timeout: 300 }`), for the names of steps. */
const show = (v: unknown): string =>
  typeof v === 'string'
    ? `'${v}'`
    : Array.isArray(v)
      ? `[${v.map(show).join(', ')}]`
      : v && typeof v === 'object'
        ? `{ ${Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .map(([k, x]) => `${k}: ${show(x)}`)
            .join(', ')} }`
        : String(v);
const argsOf = (...a: unknown[]) =>
  a
    .filter((x) => x !== undefined && !(x && typeof x === 'object' && !Object.values(x).some((y) => y !== undefined)))
    .map(show)
    .join(', ');

/** The handle's reader (log-reader.ts): the matchers and the fixture read through it, outside the public API. */
const readers = new WeakMap<Embed, LogReader>();
export function readerOf(embed: Embed): LogReader {
  return readers.get(embed) as LogReader;
}

/**
 * Settle, then read `what`: whole, or an EmbedTimeoutError naming `call` when the caller's time ran out first
 * (while frames were still handing over, or before the log was read to its end). `partial`: a settle cut by the
 * caller's time still reads what the log holds (in the reader's grace; `settled` says which frames had not handed
 * over), for a matcher whose pass on part of the log is still true. `late`: read for a failure message, after the
 * caller's time, in its grace.
 */
export async function settledRead<T>(
  embed: Embed,
  call: string,
  what: 'records' | 'lines' | 'types' | 'first' | 'capture',
  opts: { q?: LogQuery; limit?: number; createdBy?: string; partial?: boolean; late?: boolean } = {},
): Promise<ReadResult<T> & { settled: Settled }> {
  const reader = readerOf(embed);
  const until = reader.until() + (opts.late ? reader.grace : 0);
  const settled = await reader.settle(until);
  if (settled.cut && !opts.partial) {
    throw new EmbedTimeoutError(
      redactString(
        `${call}: the test's time ran out while the page's frames handed over what they held (${settleNote(settled)})`,
      ),
    );
  }
  const { q, limit, createdBy } = opts;
  const readUntil = settled.cut ? reader.until() + reader.grace : until;
  const read = await reader.read<T>(what, { q, limit, createdBy, until: readUntil });
  if (!read.complete) {
    throw new EmbedTimeoutError(
      redactString(`${call}: ${read.items.length.toLocaleString('en-US')} read, ${read.missing}`),
    );
  }
  return { ...read, settled };
}

/** The captured traffic of one tab. */
export class Embed {
  private readonly step: <T>(title: string, body: () => Promise<T>) => Promise<T>;

  constructor(opts: EmbedHandleOptions) {
    readers.set(this, new LogReader(opts.evaluate, opts.tabId, opts.until, opts.grace));
    this.step = opts.step ?? ((_title, body) => body());
  }

  private get reader(): LogReader {
    return readerOf(this);
  }

  private api<A, R>(fn: (arg: A & { tabId: number }) => R | Promise<R>, arg: A): Promise<R> {
    return this.reader.call(fn, arg);
  }

  /** The extension's tab id of this handle's page. */
  tabId(): Promise<number> {
    return this.reader.tabId();
  }

  /**
   * Every frame hands over what it holds; resolves once that is in the log. A frame that stays silent (its page
   * busy in a long task, or still handing over a flood) is asked again while the log grows, and for up to
   * SETTLE_PATIENCE_MS after it last grew.
   */
  async settle(): Promise<void> {
    await this.step('embed.settle()', () => this.reader.settle());
  }

  /** The tab's state: tenant origin and how it was found, page URL, counters. */
  async state(): Promise<TabState> {
    return this.api(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.state(tabId), {});
  }

  /** The records that answer `query` (default: the svc-embed messages), in capture order, after settling. */
  async records(query: RecordQuery = {}): Promise<ClassifiedRecord[]> {
    const call = `embed.records(${argsOf(query)})`;
    return this.step(
      call,
      async () => (await settledRead<ClassifiedRecord>(this, call, 'records', { q: query })).items,
    );
  }

  /** Every record: messages, foreign traffic and frame navigations. */
  async all(): Promise<ClassifiedRecord[]> {
    return this.step('embed.all()', async () => {
      const q = { navigation: true, foreign: true };
      return (await settledRead<ClassifiedRecord>(this, 'embed.all()', 'records', { q })).items;
    });
  }

  /** The issues found, each once (at the post for a post and its delivery), filtered by severity or rule. */
  async issues(query: IssueQuery = {}): Promise<FoundIssue[]> {
    const call = `embed.issues(${argsOf(query)})`;
    return this.step(call, async () => {
      // (a frame's navigation carries the embed's address and what it never said: url.*, silence.*)
      const q = { navigation: true, withIssues: true };
      return issuesOf((await settledRead<ClassifiedRecord>(this, call, 'records', { q })).items, query);
    });
  }

  /**
   * The first record of `type` (and surface), by default its delivery (`kind: 'receive'`: the receiving frame got
   * it; a post the browser dropped never counts); `kind: 'post'` waits for the postMessage call instead. Waits up
   * to `timeout` ms; a timeout rejects with what was seen instead.
   */
  async waitFor(type: string, opts: WaitOptions = {}): Promise<ClassifiedRecord> {
    const call = `embed.waitFor(${argsOf(type, opts)})`;
    return this.step(call, () => this.waitForRecord(call, type, opts));
  }

  private async waitForRecord(call: string, type: string, opts: WaitOptions): Promise<ClassifiedRecord> {
    const timeout = opts.timeout ?? 10_000;
    const q: LogQuery = { type, kind: opts.kind ?? 'receive', surface: opts.surface };
    const started = Date.now();
    const limit = this.reader.until();
    // (the caller's time, a Playwright test's, may end first: then the wait ends just before it, and says so)
    const byCaller = limit < started + timeout;
    const end = byCaller ? limit : started + timeout;
    const first = async () => (await this.reader.read<ClassifiedRecord>('first', { q, until: end })).items[0];
    for (;;) {
      // What is in the log already; then what the frames hold.
      let hit = await first();
      if (!hit) {
        await this.reader.settle(end);
        hit = await first();
      }
      if (hit) {
        return hit;
      }
      if (Date.now() >= end) {
        break;
      }
      await pause(Math.min(100, Math.max(0, end - Date.now())));
    }
    const verb = q.kind === 'post' ? 'posted' : 'delivered';
    const why = byCaller
      ? `not ${verb} before the test's time ran out (${Date.now() - started} ms of the wait's ${timeout})`
      : `not ${verb} within ${timeout} ms`;
    throw new EmbedTimeoutError(await this.unseen(call, type, q, why));
  }

  /** A wait's failure: what it waited for, the posts of that type that were not delivered, what was seen. */
  private async unseen(call: string, type: string, q: LogQuery, why: string): Promise<string> {
    const until = this.reader.until() + this.reader.grace;
    // (a read the worker did not answer in time is not read: it must not say that nothing was seen)
    const read = <T>(what: 'types' | 'lines', rq: LogQuery, limit?: number) =>
      this.reader
        .read<T>(what, { q: rq, limit, until })
        .then((r) => (r.complete || r.items.length ? r : null))
        .catch(() => null);
    const types = await read<string>('types', {});
    const posts = q.kind === 'receive' ? await read<ClassifiedRecord>('lines', { type, kind: 'post' }, 1) : null;
    const seen = await read<ClassifiedRecord>('lines', { navigation: true }, LISTED_RECORDS);
    const kinds = [...new Set(types?.items ?? [])];
    const undelivered = posts?.total
      ? `\n${posts.scanned} post${posts.scanned === 1 ? '' : 's'} of ${type} seen, ${posts.items[0].dropped ? 'dropped by the browser (the target origin did not match the target)' : 'not delivered to a captured frame'}: { kind: 'post' } waits for the post`
      : '';
    const list = !seen
      ? types
        ? '\n(what was seen was not read)'
        : ''
      : seen.items.length
        ? `\n${describeRecords(seen.items)}${seen.scanned > seen.items.length ? `\n  … and ${(seen.scanned - seen.items.length).toLocaleString('en-US')} more records` : ''}`
        : '';
    // (redacted: a test log or a CI artifact must not carry the embed's session id)
    return redactString(
      `${call}: ${type}${q.surface ? ` (surface ${q.surface})` : ''} ${why}; ${kinds.length ? `seen: ${kinds.map(inert).join(', ')}` : types ? 'no svc-embed message seen' : 'what was seen was not read (the extension’s worker did not answer in time)'}${undelivered}${list}`,
    );
  }

  /** The capture (format v1) of the tab, redacted as the panel's export is unless `redact: false`. */
  async capture(opts: { redact?: boolean } = {}): Promise<CaptureFile> {
    return this.step('embed.capture()', async () => {
      const read = await settledRead<CaptureFile['messages'][number]>(this, 'embed.capture()', 'capture', {
        createdBy: 'embed-inspector test library',
      });
      const file = { ...(read.head as CaptureFile), messages: read.items };
      return opts.redact === false ? { ...file, meta: { ...file.meta, redacted: false } } : redactCapture(file);
    });
  }

  /** The whole log as text, one line per record with its issues (what a failed test attaches); redacted. */
  async timeline(opts: { redact?: boolean } = {}): Promise<string> {
    return this.step('embed.timeline()', async () => {
      const state = await this.state();
      const q = { navigation: true, foreign: true };
      const read = await settledRead<ClassifiedRecord>(this, 'embed.timeline()', 'lines', { q });
      return timelineText(state, read.items, { redact: opts.redact });
    });
  }

  /** Empty the tab's log (the embed's session goes on). */
  async clear(): Promise<void> {
    await this.step('embed.clear()', async () => {
      await this.reader.settle();
      await this.api(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.clear(tabId), {});
    });
  }

  /** Set the tenant origin by hand (null: back to the inferred one). */
  async setTenantOrigin(origin: string | null): Promise<void> {
    await this.api(
      ({ tabId, origin }) =>
        (globalThis as unknown as { embedInspector: Api }).embedInspector.setTenantOrigin(tabId, origin),
      { origin },
    );
  }

  /**
   * Send an action to the embed as the host page would: from the top frame to the embed frame, target origin the
   * tenant origin (never `*`). `{ type, payload }` is completed into the envelope. Resolves once posted.
   */
  async send(action: Outgoing, opts: { frameUrl?: string } = {}): Promise<void> {
    const message = envelope(action, 'action');
    await this.step(`embed.send(${argsOf(action.type)})`, () =>
      this.api(
        ({ tabId, message, frameUrl }) =>
          (globalThis as unknown as { embedInspector: Api }).embedInspector.send(tabId, message, { frameUrl }),
        { message, frameUrl: opts.frameUrl },
      ),
    );
  }

  /**
   * Make the embed frame emit an event to its host (so `event.origin` is the tenant origin), to test the host's
   * handlers. `{ type, payload }` is completed; the surface is the embed's own (from its `ready`) unless given.
   */
  async emit(event: Outgoing, opts: { frameUrl?: string } = {}): Promise<void> {
    const call = `embed.emit(${argsOf(event?.type)})`;
    await this.step(call, async () => {
      const q = { type: 'svc:event:ready' };
      const [ready] = (await settledRead<ClassifiedRecord>(this, call, 'first', { q })).items;
      const surface = (ready?.data as { surface?: string } | undefined)?.surface;
      const message = envelope(event, 'event', surface);
      await this.api(
        ({ tabId, message, frameUrl }) =>
          (globalThis as unknown as { embedInspector: Api }).embedInspector.send(tabId, message, { frameUrl }),
        { message, frameUrl: opts.frameUrl },
      );
    });
  }
}

/**
 * What a failed test carries: the capture and the timeline, read until `until` (epoch ms). What could not be read
 * in time is said: `capture` holds the records read (whole ones), the timeline starts with notes of what is missing.
 */
export async function evidence(
  embed: Embed,
  until: number,
): Promise<{ capture: CaptureFile | null; captureNote?: string; timeline: string }> {
  const reader = readerOf(embed);
  const notes: string[] = [];
  const span = Math.max(0, until - Date.now());
  // Settling may take part of the time; the reads the rest.
  const settled = await reader
    .settle(Date.now() + span * 0.4)
    .catch((e: Error) => ({ frames: 0, silent: 0, cut: false, error: e }));
  if ('error' in settled) {
    notes.push(`the frames were not asked to hand over: ${settled.error.message.split('\n')[0]}`);
  } else if (settleNote(settled)) {
    notes.push(settleNote(settled));
  }
  let capture: CaptureFile | null = null;
  let captureNote: string | undefined;
  try {
    const read = await reader.read<CaptureFile['messages'][number]>('capture', {
      until,
      createdBy: 'embed-inspector test library',
    });
    capture = redactCapture({ ...(read.head as CaptureFile), messages: read.items });
    if (!read.complete) {
      captureNote = `embed-capture.json holds the first ${read.items.length.toLocaleString('en-US')} of ${read.total.toLocaleString('en-US')} records; ${read.missing}`;
    }
  } catch (e) {
    captureNote = `embed-capture.json not read: ${(e as Error).message.split('\n')[0]}`;
  }
  if (captureNote) {
    notes.push(captureNote);
  }
  const state = await reader
    .call(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.state(tabId), {})
    .catch(() => null);
  let lines: ClassifiedRecord[] = [];
  try {
    const read = await reader.read<ClassifiedRecord>('lines', { q: { navigation: true, foreign: true }, until });
    lines = read.items;
    if (!read.complete) {
      notes.push(
        `the timeline lists the first ${lines.length.toLocaleString('en-US')} of ${read.total.toLocaleString('en-US')} records; ${read.missing}`,
      );
    }
  } catch (e) {
    notes.push(`the timeline was not read: ${(e as Error).message.split('\n')[0]}`);
  }
  return { capture, captureNote, timeline: timelineText(state, lines, { notes }) };
}

/** The newest tab of the browser (tab ids only grow) that `taken` does not hold. Null when there is none. */
export async function newestTab(evaluate: Evaluate, taken: readonly number[] = []): Promise<number | null> {
  const ids = await evaluate(
    async () => (await chrome.tabs.query({})).map((t) => t.id).filter((id): id is number => typeof id === 'number'),
    null,
  );
  const free = ids.filter((id) => !taken.includes(id));
  return free.length ? Math.max(...free) : null;
}

/** The newest tab showing `url`; null when none does. */
export async function tabOfUrl(evaluate: Evaluate, url: string): Promise<number | null> {
  return evaluate(async (u: string) => {
    const ids = (await chrome.tabs.query({}))
      .filter((t) => t.url === u || t.pendingUrl === u)
      .map((t) => t.id)
      .filter((id): id is number => typeof id === 'number');
    return ids.length ? Math.max(...ids) : null;
  }, url);
}

/** Set the capture scope (`embedInspector.setCapture`); resolves once the capture scripts are registered. */
export async function setScope(evaluate: Evaluate, opts: EmbedOptions = {}): Promise<void> {
  await evaluate(
    (setting: { sites: 'all' | string[]; mode: string }) =>
      (globalThis as unknown as { embedInspector: Api }).embedInspector.setCapture(setting),
    { sites: opts.sites ?? 'all', mode: opts.mode ?? 'full' },
  );
}
