/**
 * Per-tab contexts: the TabLog, its durable copy, the relays (one port per frame) and the panels
 * subscribed to it. Every operation on a tab runs in order on the tab's chain; a batch is acknowledged
 * to its relay only once stored.
 */
import {
  MESSAGES_VERSION,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type CaptureConfig,
  type CaptureMode,
  type ClassifiedRecord,
  type RawRecord,
  type TabState,
} from '../shared/messages.ts';
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import { commit, deleteTab, loadTab, type StoredBatch, type TabMeta } from './db.ts';
import { TabLog, newState, type AddResult } from './tablog.ts';
import type { FrameInfo } from './pairing.ts';

type Port = chrome.runtime.Port;

export interface TabCtx {
  log: TabLog;
  meta: Omit<TabMeta, 'state' | 'frames'>;
  relays: Map<number, Port>;
  panels: Set<Port>;
  chain: Promise<unknown>;
  /** Number of the next stored batch. */
  nextBatch: number;
  /** Records stored in raw batches since the last snapshot (compaction past the buffer bound). */
  sinceSnapshot: number;
  /** Batches stored but not yet in the log (see `ingest`), and their size in UTF-16 units. */
  pending: Array<{ frameId: number; json: string }>;
  pendingChars: number;
  processTimer: ReturnType<typeof setTimeout> | null;
}

/**
 * Deferred processing. A batch from a relay is stored as it came (durable) and acknowledged at once; it is
 * parsed, classified, paired and published later:
 * - within LIVE_DELAY_MS while a panel watches the tab;
 * - else once the tab's stream pauses for IDLE_MS (a page flooded with messages runs no timers, so its relay
 *   sends only when a batch is full, seconds apart: a short pause is no sign of the end of a burst);
 * - past MAX_PENDING_CHARS of pending text (memory bound);
 * - as soon as anything reads the log: every `onTab` operation but ingestion processes what is pending first.
 * A burst of page messages then competes with nothing but the storage of its batches (the worker shares the
 * machine's cores with the page).
 */
export const LIVE_DELAY_MS = 50;
export const IDLE_MS = 5000;
export const MAX_PENDING_CHARS = 64_000_000;

export const settings = { maxBytes: DEFAULT_MAX_BYTES };
/** Smallest size cap accepted: below it even an envelope would not fit. */
export const MIN_MAX_BYTES = 1024;
const storageApi = () =>
  ((globalThis as { browser?: typeof chrome }).browser ?? (globalThis as { chrome?: typeof chrome }).chrome)?.storage;

/** Set the size cap of one captured message for the whole extension (chrome.storage.local `settings`). */
export async function setMaxBytes(maxBytes: number): Promise<void> {
  settings.maxBytes = Math.max(MIN_MAX_BYTES, Math.floor(maxBytes));
  await storageApi()
    ?.local.set({ settings: { maxBytes: settings.maxBytes } })
    .catch(() => {});
  // Every tab's frames get the new cap.
  for (const p of contexts.values()) {
    void p.then(
      (ctx) => pushConfig(ctx),
      () => {},
    );
  }
}
const contexts = new Map<number, Promise<TabCtx>>();
const MAX_DOCS = 500;

/** What the replay must not rebuild: settings, page URL, a hand-set tenant origin. */
function settingsOf(s: TabState): Partial<TabState> {
  return {
    preserveLog: s.preserveLog,
    paused: s.paused,
    maxRecords: s.maxRecords,
    pageUrl: s.pageUrl,
    ...(s.tenantOriginSource === 'manual'
      ? { tenantOrigin: s.tenantOrigin, tenantOriginSource: 'manual' as const }
      : {}),
  };
}

async function restore(tabId: number): Promise<TabCtx> {
  let loaded: Awaited<ReturnType<typeof loadTab>> = null;
  try {
    loaded = await loadTab(tabId);
  } catch (e) {
    console.warn('embed-inspector: could not load tab log', e);
  }
  const ctx: TabCtx = {
    log: new TabLog(newState(tabId)),
    meta: { tabId, docBatches: {} },
    relays: new Map(),
    panels: new Set(),
    chain: Promise.resolve(),
    nextBatch: 1,
    sinceSnapshot: 0,
    pending: [],
    pendingChars: 0,
    processTimer: null,
  };
  if (!loaded) {
    return ctx;
  }
  const { meta, batches } = loaded;
  ctx.meta = { tabId, docBatches: meta.docBatches ?? {}, topDocumentId: meta.topDocumentId };
  const keep = settingsOf(meta.state);
  const first = batches[0]?.[1];
  ctx.log =
    first?.kind === 'snapshot'
      ? new TabLog({ ...first.state, ...keep }, JSON.parse(first.json) as ClassifiedRecord[], first.nextSeq, {
          sessionBase: first.session ?? null,
        })
      : new TabLog(newState(tabId, keep));
  for (const f of meta.frames ?? []) {
    ctx.log.frames.set(f.frameId, f);
  }
  for (const [n, b] of batches) {
    ctx.nextBatch = n + 1;
    if (b.kind !== 'raw') {
      continue;
    }
    if (b.seq0 !== undefined) {
      // (batches stored before processing continue the numbering; never below a seq already given)
      ctx.log.nextSeq = Math.max(ctx.log.nextSeq, b.seq0);
    }
    try {
      addBatch(ctx, b.frameId, b.json);
    } catch (e) {
      console.warn('embed-inspector: unreadable stored batch', n, e);
    }
  }
  return ctx;
}

/** Tabs whose top document is in the capture scope (seen since the worker started): their frames' navigations are recorded. */
export const scopedTabs = new Set<number>();
/** A log of this tab is open in this worker (a capture script or a panel reached it since the worker started). */
export const hasContext = (tabId: number): boolean => contexts.has(tabId);
/** Every tab context open in this worker. */
export const allContexts = (): Array<Promise<TabCtx>> => [...contexts.values()];

export function tab(tabId: number): Promise<TabCtx> {
  let p = contexts.get(tabId);
  if (!p) {
    p = restore(tabId);
    contexts.set(tabId, p);
  }
  return p;
}

/**
 * Run `fn` on the tab's chain (after everything queued before it). The pending batches are processed
 * first, so `fn` sees the whole log; `lazy` (ingestion only) leaves them pending.
 */
export async function onTab<T>(
  tabId: number,
  fn: (ctx: TabCtx) => Promise<T> | T,
  opts: { lazy?: boolean } = {},
): Promise<T> {
  const ctx = await tab(tabId);
  const next = ctx.chain.then(() => {
    if (!opts.lazy) {
      processPending(ctx);
    }
    return fn(ctx);
  });
  ctx.chain = next.catch((e) => console.warn('embed-inspector:', e));
  return next;
}

function metaOf(ctx: TabCtx): TabMeta {
  return { ...ctx.meta, state: { ...ctx.log.state }, frames: [...ctx.log.frames.values()] };
}

/** Persist settings/state only, or a new log (clear: the held records, if any, become a snapshot). */
export function persist(ctx: TabCtx, change: { clear?: boolean } = {}): Promise<void> {
  if (!change.clear) {
    return commit({ meta: metaOf(ctx) });
  }
  return writeSnapshot(ctx);
}

/** Replace every stored batch by one snapshot of the held records. */
function writeSnapshot(ctx: TabCtx): Promise<void> {
  ctx.sinceSnapshot = 0;
  const value: StoredBatch = {
    kind: 'snapshot',
    nextSeq: ctx.log.nextSeq,
    state: { ...ctx.log.state },
    json: JSON.stringify([...ctx.log.records.values()]),
    ...(ctx.log.sessionBase ? { session: ctx.log.sessionBase } : {}),
  };
  return commit({ meta: metaOf(ctx), clear: true, batch: { n: ctx.nextBatch++, value } });
}

/** Compaction: past the buffer bound, a snapshot replaces every stored batch. */
const snapshotDue = (ctx: TabCtx) => ctx.sinceSnapshot > Math.max(ctx.log.state.maxRecords, 1000);

/** Append raw records of one frame to the log and to storage (compacting past the bound). */
function appendRaw(
  ctx: TabCtx,
  frameId: number,
  raws: RawRecord[],
  json: string,
): { res: AddResult; stored: Promise<void> } {
  const seq0 = ctx.log.nextSeq;
  const res = ctx.log.add(raws.map((r) => ({ ...r, frameId })));
  ctx.sinceSnapshot += raws.length;
  const stored = snapshotDue(ctx)
    ? writeSnapshot(ctx)
    : commit({ meta: metaOf(ctx), batch: { n: ctx.nextBatch++, value: { kind: 'raw', seq0, frameId, json } } });
  return { res, stored };
}

export function toPanels(ctx: TabCtx, msg: BackgroundToPanel): void {
  for (const p of ctx.panels) {
    try {
      p.postMessage(msg);
    } catch {
      ctx.panels.delete(p);
    }
  }
}
export function snapshot(ctx: TabCtx): BackgroundToPanel {
  return { v: MESSAGES_VERSION, type: 'snapshot', state: panelState(ctx), records: [...ctx.log.records.values()] };
}
export function publishState(ctx: TabCtx): void {
  toPanels(ctx, { v: MESSAGES_VERSION, type: 'state', state: panelState(ctx) });
}
/** The tab's state as panels see it, with the extension-wide size cap. */
function panelState(ctx: TabCtx): TabState {
  return { ...ctx.log.state, maxBytes: settings.maxBytes };
}

/** The capture mode of each relay's frame (its site's mode in the scope), set when the relay says hello. */
export const relayModes = new WeakMap<Port, CaptureMode>();

/** A frame's config: the tab's pause, its site's mode, the extension's size cap. */
export function configOf(state: TabState, mode: CaptureMode | null | undefined): CaptureConfig {
  // Out of scope (Firefox matches a captured host on every port): no hook and nothing recorded.
  return { receiveOnly: mode !== 'full', paused: state.paused || mode === null, maxBytes: settings.maxBytes };
}
export function pushConfig(ctx: TabCtx): void {
  for (const p of ctx.relays.values()) {
    const msg: BackgroundToRelay = {
      v: MESSAGES_VERSION,
      type: 'config',
      config: configOf(ctx.log.state, relayModes.get(p)),
    };
    try {
      p.postMessage(msg);
    } catch {
      /* gone */
    }
  }
}

/**
 * A relay's batch (JSON text of raw records of one frame): stored as is, processed later (see LIVE_DELAY_MS).
 * Resolves when durable. Run it on the tab's chain with `lazy`.
 */
export async function ingest(ctx: TabCtx, frameId: number, json: string): Promise<void> {
  if (ctx.log.state.paused) {
    return;
  }
  ctx.pending.push({ frameId, json });
  ctx.pendingChars += json.length;
  const stored = commit({ meta: metaOf(ctx), batch: { n: ctx.nextBatch++, value: { kind: 'raw', frameId, json } } });
  scheduleProcessing(ctx);
  await stored;
}

function scheduleProcessing(ctx: TabCtx): void {
  const live = ctx.panels.size > 0;
  if (ctx.pendingChars >= MAX_PENDING_CHARS) {
    processPending(ctx);
    return;
  }
  if (ctx.processTimer !== null) {
    if (live) {
      return; // due within LIVE_DELAY_MS already
    }
    clearTimeout(ctx.processTimer); // idle: wait for a pause in the stream
  }
  ctx.processTimer = setTimeout(
    () => {
      ctx.processTimer = null;
      void onTab(ctx.log.state.tabId, () => {});
    },
    live ? LIVE_DELAY_MS : IDLE_MS,
  );
}

/** Parse one frame's batch (JSON text of raw records), each record marked with the frame. Throws on unreadable JSON. */
function parseBatch(frameId: number, json: string): Array<RawRecord & { frameId?: number }> {
  const raws = JSON.parse(json) as Array<RawRecord & { frameId?: number }>;
  for (const r of raws) {
    r.frameId = frameId;
  }
  return raws;
}

/** Parse one frame's batch and add it to the log. Throws on unreadable JSON. */
function addBatch(ctx: TabCtx, frameId: number, json: string): AddResult {
  const raws = parseBatch(frameId, json);
  ctx.sinceSnapshot += raws.length;
  return ctx.log.add(raws);
}

/**
 * Parse, classify, pair and publish the pending batches. They are added together: the log orders them by
 * capture time, whatever order they came in (each frame's records stay in the frame's order).
 */
export function processPending(ctx: TabCtx): void {
  if (ctx.processTimer !== null) {
    clearTimeout(ctx.processTimer);
    ctx.processTimer = null;
  }
  if (!ctx.pending.length) {
    return;
  }
  const batches = ctx.pending;
  ctx.pending = [];
  ctx.pendingChars = 0;
  const raws: Array<RawRecord & { frameId?: number }> = [];
  for (const b of batches) {
    try {
      for (const r of parseBatch(b.frameId, b.json)) {
        raws.push(r);
      }
    } catch (e) {
      console.warn('embed-inspector: unreadable batch', e);
    } // (it stays stored as it came)
  }
  ctx.sinceSnapshot += raws.length;
  publish(ctx, ctx.log.add(raws));
  // Compaction, past the bound: the snapshot replaces every stored batch, processed now.
  if (snapshotDue(ctx)) {
    void writeSnapshot(ctx).catch((e) => console.warn('embed-inspector: snapshot', e));
  }
}

/** Store a batch of raw records from one frame (`json`: as the relay sent it); publish; resolve when durable. */
export async function addRecords(ctx: TabCtx, frameId: number, raws: RawRecord[]): Promise<void> {
  if (ctx.log.state.paused) {
    return;
  }
  const { res, stored } = appendRaw(ctx, frameId, raws, JSON.stringify(raws));
  publish(ctx, res);
  await stored;
}

function publish(ctx: TabCtx, res: AddResult): void {
  if (res.reclassified) {
    toPanels(ctx, snapshot(ctx));
    return;
  }
  if (res.removed.length) {
    toPanels(ctx, { v: MESSAGES_VERSION, type: 'removed', seqs: res.removed });
  }
  const from = res.reorderedFrom;
  if (from !== undefined) {
    // Late records: the held records from `from` on, in their new order, replace the panels' (usually a short tail).
    const records: ClassifiedRecord[] = [];
    for (let s = from; s < ctx.log.nextSeq; s++) {
      const r = ctx.log.records.get(s);
      if (r) {
        records.push(r);
      }
    }
    toPanels(ctx, { v: MESSAGES_VERSION, type: 'reorder', fromSeq: from, records });
    const before = res.updated.filter((r) => r.seq < from);
    if (before.length) {
      toPanels(ctx, { v: MESSAGES_VERSION, type: 'update', records: before });
    }
    publishState(ctx);
    return;
  }
  if (res.added.length) {
    toPanels(ctx, { v: MESSAGES_VERSION, type: 'records', records: res.added });
  }
  if (res.updated.length) {
    toPanels(ctx, { v: MESSAGES_VERSION, type: 'update', records: res.updated });
  }
  publishState(ctx);
}

/** A new top-level document: a new log unless preserve log is on. Once per document. */
export async function topDocument(
  ctx: TabCtx,
  url: string,
  documentId: string | undefined,
  time: number,
): Promise<void> {
  if (documentId && documentId === ctx.meta.topDocumentId) {
    return;
  }
  ctx.meta.topDocumentId = documentId;
  const top = ctx.log.frames.get(0);
  ctx.log.frames = new Map([[0, { ...(top ?? { parentFrameId: -1 }), frameId: 0, url }]]);
  if (!ctx.log.state.preserveLog) {
    ctx.log.reset(url);
    ctx.meta.docBatches = keepLast(ctx.meta.docBatches);
    await writeSnapshot(ctx); // an empty snapshot: the new log
    toPanels(ctx, snapshot(ctx));
  }
  // (with preserve log, the navigation record starts the new page in the log: TabLog.newPage)
  await addRecords(ctx, 0, [navigationRecord(0, url, time)]);
}

/**
 * The tab's top document left the capture scope: its log ends there (kept as it was with preserve log), and
 * nothing of the new page is recorded, its address included.
 */
export async function leaveScope(ctx: TabCtx, documentId: string | undefined): Promise<void> {
  if (documentId && documentId === ctx.meta.topDocumentId) {
    return;
  }
  ctx.meta.topDocumentId = documentId;
  ctx.log.frames = new Map();
  if (ctx.log.state.preserveLog) {
    return;
  }
  ctx.log.reset(null);
  ctx.meta.docBatches = keepLast(ctx.meta.docBatches);
  await writeSnapshot(ctx);
  toPanels(ctx, snapshot(ctx));
}

export function navigationRecord(frameId: number, url: string, time: number): RawRecord {
  let origin = 'null';
  try {
    origin = new URL(url).origin;
  } catch {
    /* keep */
  }
  return { time, kind: 'receive', frameUrl: url, origin, data: { url }, navigation: true };
}

export function setFrame(ctx: TabCtx, f: FrameInfo): void {
  ctx.log.frames.set(f.frameId, f);
}

function keepLast(docs: Record<string, number>): Record<string, number> {
  const entries = Object.entries(docs);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_DOCS)));
}

export async function forget(tabId: number): Promise<void> {
  contexts.delete(tabId);
  try {
    await deleteTab(tabId);
  } catch {
    /* ignore */
  }
}

export function rememberBatch(ctx: TabCtx, docId: string, batch: number): void {
  ctx.meta.docBatches[docId] = batch;
  const keys = Object.keys(ctx.meta.docBatches);
  if (keys.length > MAX_DOCS * 2) {
    ctx.meta.docBatches = keepLast(ctx.meta.docBatches);
  }
}
