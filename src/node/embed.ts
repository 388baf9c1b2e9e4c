/**
 * The `embed` handle of the test libraries (`embed-inspector/playwright`, `embed-inspector/puppeteer`) and of
 * `record --script`: what the extension captured in one tab, read and driven through its automation API
 * (`globalThis.embedInspector` in the service worker; docs/automation-api.md). No browser driver is imported
 * here: each library hands in how to evaluate a function in the worker, so Playwright and puppeteer share it.
 *
 * Every read settles first (`embedInspector.settle`: each frame hands over what it holds), so a test sees what the
 * page did before the call, never a guess of when the frame's batching ends.
 */
import type { ClassifiedRecord, SettleResult, TabState } from '../shared/messages.ts';
import type { CaptureFile, RecordKind } from '../protocol/record.ts';
import type { Issue, Severity } from '../protocol/classify.ts';
import { redactCapture, redactString } from '../protocol/redact.ts';
import { inert } from '../protocol/inert.ts';
import { shownUrl } from '../protocol/address.ts';

/** Evaluate a self-contained function in the extension's service worker (one argument, JSON-safe). */
export type Evaluate = <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => Promise<R>;

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

export interface IssueQuery {
  severity?: Severity | Severity[];
  rule?: string | string[];
}

/** An issue with the record it was found on. */
export interface FoundIssue extends Issue {
  seq: number;
  type: string | null;
  kind: RecordKind;
  frameUrl: string;
}

export interface WaitOptions {
  /** ms; default 10,000. */
  timeout?: number;
  surface?: string;
  kind?: RecordKind;
}

/** A message as a test writes it: a full envelope, or `{ type, payload }` that `send`/`emit` complete. */
export interface Outgoing {
  type: string;
  payload?: unknown;
  [field: string]: unknown;
}

/** How long a read waits, in all, for frames that stay silent when asked to hand over (a page in a long task). */
const SETTLE_PATIENCE_MS = 60_000;

type Api = {
  settle(tabId: number): Promise<SettleResult>;
  records(tabId: number): Promise<ClassifiedRecord[]>;
  state(tabId: number): Promise<TabState>;
  exportCapture(tabId: number, createdBy?: string): Promise<CaptureFile>;
  clear(tabId: number): Promise<void>;
  send(tabId: number, message: unknown, options?: { frameUrl?: string }): Promise<void>;
  setTenantOrigin(tabId: number, origin: string | null): Promise<TabState>;
  setCapture(setting: unknown): Promise<unknown>;
};

const typeOf = (r: { data?: unknown }): string | null => {
  const d = r.data as { type?: unknown } | null;
  return d && typeof d === 'object' && typeof d.type === 'string' ? d.type : null;
};
const isSvc = (r: { data?: unknown }) => {
  const d = r.data as { source?: unknown } | null;
  return !!d && typeof d === 'object' && d.source === 'svc-embed';
};
const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** Whether a record answers a query (pure; the same test runs in the worker, see `records`). */
function matches(r: ClassifiedRecord, q: RecordQuery = {}): boolean {
  if (r.navigation) {
    return !!q.navigation && q.type === undefined && q.kind === undefined;
  }
  if (!q.foreign && r.verdict === 'foreign') {
    return false;
  }
  const types = list(q.type);
  if (types && !types.includes(typeOf(r) ?? '')) {
    return false;
  }
  if (q.kind && r.kind !== q.kind) {
    return false;
  }
  const d = (r.data ?? {}) as { direction?: unknown; surface?: unknown };
  if (q.direction && d.direction !== q.direction) {
    return false;
  }
  return !(q.surface && d.surface !== q.surface);
}

/**
 * One line per record, as `embed-inspector check` lists them, each issue beneath it. Every field of the page's is
 * inert (no terminal escape, newline or bidi control of a capture reaches a test log: protocol/inert.ts) and redacted.
 */
export function describeRecords(records: readonly ClassifiedRecord[], opts: { issues?: boolean } = {}): string {
  const out: string[] = [];
  for (const r of records) {
    if (r.navigation) {
      out.push(`  #${String(r.seq).padEnd(5)} navigation  ${inert(r.frameUrl)}`);
      continue;
    }
    const arrow = r.kind === 'post' ? `post → ${inert(r.targetOrigin ?? '?')}` : `receive ← ${inert(r.origin)}`;
    const flags = [r.dropped ? 'dropped' : '', r.error ? `threw ${inert(r.error)}` : '', r.injected ? 'injected' : '']
      .filter(Boolean)
      .join(', ');
    const type = typeOf(r);
    out.push(
      `  #${String(r.seq).padEnd(5)} ${(type == null ? (isSvc(r) ? '(no type)' : '(foreign)') : inert(type)).padEnd(30)} ${arrow}  ${r.verdict}${flags ? `  (${flags})` : ''}`,
    );
    if (opts.issues !== false) {
      for (const i of r.issues) {
        out.push(
          `           ${i.severity.padEnd(7)} ${i.rule}  ${inert(i.path)}  ${inert(i.message)}${i.sender ? ' (the post’s)' : ''}`,
        );
      }
    }
  }
  // (redacted: failure messages end up in test reports and CI logs)
  return out.map(redactString).join('\n');
}

/** Issues one per line, with the record they were found on. */
export function describeIssues(issues: readonly FoundIssue[]): string {
  return issues
    .map(
      (i) =>
        `  #${String(i.seq).padEnd(5)} ${i.severity.padEnd(7)} ${i.rule}  ${inert(i.type || '(no type)')} (${i.kind})  ${inert(i.path)}  ${inert(i.message)}`,
    )
    .map(redactString)
    .join('\n');
}

/** The issues of records, each found once: a delivery's copy of its post's issue (`sender`) is left out. */
export function issuesOf(records: readonly ClassifiedRecord[], q: IssueQuery = {}): FoundIssue[] {
  const sev = list(q.severity);
  const rules = list(q.rule);
  const out: FoundIssue[] = [];
  for (const r of records) {
    for (const i of r.issues ?? []) {
      if (i.sender || (sev && !sev.includes(i.severity)) || (rules && !rules.includes(i.rule))) {
        continue;
      }
      out.push({ ...i, seq: r.seq, type: typeOf(r), kind: r.kind, frameUrl: r.frameUrl });
    }
  }
  return out;
}

/** The svc-embed types of records in capture order, a post and its delivery counted once. */
export function typeSequence(records: readonly ClassifiedRecord[]): string[] {
  const out: string[] = [];
  for (const r of records) {
    if (r.navigation || r.verdict === 'foreign' || (r.kind === 'receive' && r.pairedWith !== undefined)) {
      continue;
    }
    const t = typeOf(r);
    if (t) {
      out.push(t);
    }
  }
  return out;
}

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

/** The captured traffic of one tab. */
export class Embed {
  private readonly evaluate: Evaluate;
  private readonly tab: () => Promise<number>;

  constructor(opts: { evaluate: Evaluate; tabId: () => Promise<number> }) {
    this.evaluate = opts.evaluate;
    this.tab = opts.tabId;
  }

  private async call<A, R>(fn: (arg: A & { tabId: number }) => R | Promise<R>, arg: A): Promise<R> {
    const tabId = await this.tab();
    return this.evaluate(fn, { ...arg, tabId });
  }

  /** The extension's tab id of this handle's page. */
  tabId(): Promise<number> {
    return this.tab();
  }

  /**
   * Every frame hands over what it holds; resolves once that is in the log. A frame that stayed silent (its page
   * busy in a long task, or still handing over a flood) is asked again, for up to SETTLE_PATIENCE_MS in all.
   */
  async settle(): Promise<void> {
    const deadline = Date.now() + SETTLE_PATIENCE_MS;
    for (;;) {
      const r = await this.call(
        ({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.settle(tabId),
        {},
      );
      // (an extension older than this library answers nothing: settled as it says)
      if (!r?.silent || Date.now() >= deadline) {
        return;
      }
    }
  }

  /** The tab's state: tenant origin and how it was found, page URL, counters. */
  async state(): Promise<TabState> {
    return this.call(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.state(tabId), {});
  }

  /** The records that answer `query` (default: the svc-embed messages), in capture order, after settling. */
  async records(query: RecordQuery = {}): Promise<ClassifiedRecord[]> {
    await this.settle();
    return this.read(query);
  }

  private async read(query: RecordQuery): Promise<ClassifiedRecord[]> {
    const all = await this.call(
      ({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.records(tabId),
      {},
    );
    return all.filter((r) => matches(r, query));
  }

  /** Every record: messages, foreign traffic and frame navigations. */
  async all(): Promise<ClassifiedRecord[]> {
    return this.records({ navigation: true, foreign: true });
  }

  /** The issues found, each once (at the post for a post and its delivery), filtered by severity or rule. */
  async issues(query: IssueQuery = {}): Promise<FoundIssue[]> {
    // (a frame's navigation carries the embed's address and what it never said: url.*, silence.*)
    return issuesOf(await this.records({ navigation: true }), query);
  }

  /**
   * The first record of `type` (and surface, kind); waits for it up to `timeout` ms. A timeout rejects with
   * what was seen instead.
   */
  async waitFor(type: string, opts: WaitOptions = {}): Promise<ClassifiedRecord> {
    const timeout = opts.timeout ?? 10_000;
    const q: RecordQuery = { type, kind: opts.kind, surface: opts.surface };
    const deadline = Date.now() + timeout;
    for (;;) {
      const [hit] = await this.records(q);
      if (hit) {
        return hit;
      }
      if (Date.now() >= deadline) {
        break;
      }
      await pause(Math.min(100, Math.max(0, deadline - Date.now())));
    }
    const seen = await this.records({ navigation: true });
    const types = [...new Set(typeSequence(seen))];
    const what = [type, opts.surface && `surface ${opts.surface}`, opts.kind].filter(Boolean).join(', ');
    // (redacted: a test log or a CI artifact must not carry the embed's session id)
    throw new EmbedTimeoutError(
      redactString(
        `${what} not seen within ${timeout} ms; ${types.length ? `seen: ${types.map(inert).join(', ')}` : 'no svc-embed message seen'}` +
          (seen.length ? `\n${describeRecords(seen)}` : ''),
      ),
    );
  }

  /** The capture (format v1) of the tab, redacted as the panel's export is unless `redact: false`. */
  async capture(opts: { redact?: boolean } = {}): Promise<CaptureFile> {
    await this.settle();
    const file = await this.call(
      ({ tabId }) =>
        (globalThis as unknown as { embedInspector: Api }).embedInspector.exportCapture(
          tabId,
          'embed-inspector test library',
        ),
      {},
    );
    return opts.redact === false ? { ...file, meta: { ...file.meta, redacted: false } } : redactCapture(file);
  }

  /** The whole log as text, one line per record with its issues (what a failed test attaches); redacted. */
  async timeline(opts: { redact?: boolean } = {}): Promise<string> {
    const state = await this.state();
    const records = await this.all();
    const tenant = state.tenantOrigin
      ? `tenant origin: ${state.tenantOrigin} (${state.tenantOriginSource === 'manual' ? 'set by hand' : `from the embed frame${state.tenantOriginFrame ? ` at ${shownUrl(state.tenantOriginFrame)}` : ''}`})`
      : 'tenant origin: unknown';
    const text = `${state.pageUrl ?? '(no page)'}\n${tenant}\n${records.length ? describeRecords(records) : '  (nothing captured)'}\n`;
    return opts.redact === false ? text : text.split('\n').map(redactString).join('\n');
  }

  /** Empty the tab's log (the embed's session goes on). */
  async clear(): Promise<void> {
    await this.settle();
    await this.call(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.clear(tabId), {});
  }

  /** Set the tenant origin by hand (null: back to the inferred one). */
  async setTenantOrigin(origin: string | null): Promise<void> {
    await this.call(
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
    await this.call(
      ({ tabId, message, frameUrl }) =>
        (globalThis as unknown as { embedInspector: Api }).embedInspector.send(tabId, message, { frameUrl }),
      { message, frameUrl: opts.frameUrl },
    );
  }

  /**
   * Make the embed frame emit an event to its host (so `event.origin` is the tenant origin), to test the host's
   * handlers. `{ type, payload }` is completed; the surface is the embed's own (from its `ready`) unless given.
   */
  async emit(event: Outgoing, opts: { frameUrl?: string } = {}): Promise<void> {
    const [ready] = await this.records({ type: 'svc:event:ready' });
    const surface = (ready?.data as { surface?: string } | undefined)?.surface;
    const message = envelope(event, 'event', surface);
    await this.call(
      ({ tabId, message, frameUrl }) =>
        (globalThis as unknown as { embedInspector: Api }).embedInspector.send(tabId, message, { frameUrl }),
      { message, frameUrl: opts.frameUrl },
    );
  }
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
