/**
 * One tab's session: its log (TabLog), the durable copy of it, the relays of its frames (one port per frame), the
 * panels subscribed to it, the batches stored but not yet processed and the sends waiting for a frame's answer.
 * Its methods are the only writers of that state, and whoever changes a tab (a relay, a panel, a navigation, the
 * automation API) calls them: the same validation, storage and publication on every path.
 *
 * Every operation runs in order on the session's chain, after the stored log is loaded (an MV3 worker is stopped
 * at any time: memory is only a copy). A relay's batch is acknowledged only once stored.
 */
import {
  MESSAGES_VERSION,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type CaptureConfig,
  type CaptureMode,
  type ClassifiedRecord,
  type PanelToBackground,
  type RawRecord,
  type RelayToBackground,
  type TabState,
} from '../shared/messages.ts';
import { browserApi, type Runtime } from '../shared/browser-api.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { originOf } from '../protocol/origin.ts';
import type { Commit, StoredBatch, TabMeta, loadTab } from './db.ts';
import { TabLog, newState, type AddResult } from './tablog.ts';
import type { RelayPort } from './relay-port.ts';
import { FrameNavs, type FrameNav } from './frame-navs.ts';

type Port = Runtime.Port;
type SendRequest = Extract<PanelToBackground, { type: 'send' }>;
export type SetOptions = Extract<PanelToBackground, { type: 'set-options' }>['options'];
type PostResult = Extract<RelayToBackground, { type: 'post-result' }>;

/**
 * Deferred processing. A batch from a relay is stored as it came (durable) and acknowledged at once; it is
 * parsed, classified, paired and published later:
 * - within LIVE_DELAY_MS while a panel watches the tab;
 * - else once the tab's stream pauses for IDLE_MS (a page flooded with messages runs no timers, so its relay
 *   sends only when a batch is full, seconds apart: a short pause is no sign of the end of a burst);
 * - past MAX_PENDING_CHARS of pending text (memory bound);
 * - as soon as anything reads the log: every operation but ingestion processes what is pending first.
 * A burst of page messages then competes with nothing but the storage of its batches (the worker shares the
 * machine's cores with the page).
 */
export const LIVE_DELAY_MS = 20;
export const IDLE_MS = 5000;
export const MAX_PENDING_CHARS = 64_000_000;
/** A send's frame has this long to answer. */
export const SEND_TIMEOUT_MS = 5000;
/** A frame asked to hand over (`settle`) has this long to answer; one that does not is not waited for. */
export const SETTLE_TIMEOUT_MS = 3000;
/** A tab's frames changed: its panels get its sites anew once the frames settle for this long. */
export const CAPTURE_NOTICE_MS = 250;
/** Documents whose last batch number is kept (duplicate batches after a reconnection are dropped). */
const MAX_DOCS = 500;

/** What a session needs from the rest of the background (injected: unit tests give fakes). */
export interface SessionHost {
  readonly store: {
    load(tabId: number): ReturnType<typeof loadTab>;
    commit(c: Commit): Promise<void>;
  };
  /** The extension-wide size cap of one captured message. */
  maxBytes(): number;
  setMaxBytes(maxBytes: number): Promise<void>;
  /** How long an embed has to say ready, extension-wide (protocol/diagnose.ts). */
  readyTimeoutMs(): number;
  setReadyTimeout(ms: number): Promise<void>;
  /** The mode a frame of `origin` is captured in now (null: out of scope). */
  frameMode(origin: string | null): CaptureMode | null;
  /** The panel's `capture` message for a tab: the scope and the tab's sites. */
  captureMessage(tabId: number): Promise<BackgroundToPanel>;
}

/** A frame's config: the tab's pause, its site's mode (null: out of scope), the extension's size cap. */
export function configOf(state: TabState, mode: CaptureMode | null | undefined, maxBytes: number): CaptureConfig {
  // Out of scope (Firefox matches a captured host on every port): no hook and nothing recorded.
  return { receiveOnly: mode !== 'full', paused: state.paused || mode === null, maxBytes };
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

/**
 * The options a panel or the automation API may set, checked: booleans are coerced, a bound must be a finite
 * number (the log and the settings clamp it), anything else is refused whole (nothing is changed).
 */
export function checkOptions(o: unknown): SetOptions {
  if (!o || typeof o !== 'object') {
    throw new TypeError('options: an object is expected');
  }
  const given = o as Record<string, unknown>;
  const out: SetOptions = {};
  if (given.preserveLog !== undefined) {
    out.preserveLog = !!given.preserveLog;
  }
  if (given.paused !== undefined) {
    out.paused = !!given.paused;
  }
  for (const key of ['maxRecords', 'maxBytes', 'readyTimeoutMs'] as const) {
    const v = given[key];
    if (v === undefined) {
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError(`options.${key}: a finite number is expected, not ${JSON.stringify(v)}`);
    }
    out[key] = v;
  }
  return out;
}

/** A tenant origin as given by hand: null/'' (back to the inferred one) or an origin (normalized); else throws. */
export function checkTenantOrigin(origin: unknown): string | null {
  if (origin === null || origin === undefined || origin === '') {
    return null;
  }
  const o = typeof origin === 'string' ? originOf(origin.trim()) : null;
  if (!o) {
    throw new TypeError(`not an origin: ${JSON.stringify(origin)} (use https://tenant.example.com)`);
  }
  return o;
}

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

/** Parse one frame's batch (JSON text of raw records), each record marked with the frame. Throws on unreadable JSON. */
function parseBatch(frameId: number, json: string): Array<RawRecord & { frameId?: number }> {
  const raws = JSON.parse(json) as Array<RawRecord & { frameId?: number }>;
  for (const r of raws) {
    r.frameId = frameId;
  }
  return raws;
}

function keepLast(docs: Record<string, number>): Record<string, number> {
  const entries = Object.entries(docs);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_DOCS)));
}

export class TabSession {
  private log: TabLog;
  private meta: Omit<TabMeta, 'state' | 'frames'>;
  /** The relays in scope, by frame. */
  private readonly relays = new Map<number, RelayPort>();
  private readonly panels = new Set<Port>();
  private chain: Promise<unknown>;
  /** Resolves once the stored log is loaded (never rejects). */
  private readonly restored: Promise<void>;
  /** Number of the next stored batch. */
  private nextBatch = 1;
  /** Records stored in raw batches since the last snapshot (compaction past the buffer bound). */
  private sinceSnapshot = 0;
  /** Batches stored but not yet in the log (see `ingest`), and their size in UTF-16 units. */
  private pending: Array<{ frameId: number; json: string }> = [];
  private pendingChars = 0;
  private processTimer: ReturnType<typeof setTimeout> | null = null;
  /** When a limit of the diagnosis runs out (protocol/diagnose.ts). */
  private limitTimer: ReturnType<typeof setTimeout> | null = null;
  private captureTimer: ReturnType<typeof setTimeout> | undefined;
  /** Sends waiting for their frame's answer: request id → callback. */
  private readonly sends = new Map<string, (ok: boolean, error?: string) => void>();
  /** Hand-overs asked for by `settle`, waiting for their frame's answer: request id → callback. */
  private readonly flushes = new Map<string, () => void>();
  private closed = false;
  /** Subframe navigation records waiting for their document's relay (frame-navs.ts). */
  private readonly navs = new FrameNavs((nav) => void this.run(() => this.addNavigation(nav)));

  constructor(
    readonly tabId: number,
    private readonly host: SessionHost,
  ) {
    this.log = new TabLog(newState(tabId));
    this.log.readyTimeoutMs = host.readyTimeoutMs();
    this.meta = { tabId, docBatches: {} };
    this.restored = this.restore().catch((e) => console.warn('embed-inspector: could not restore tab', tabId, e));
    this.chain = this.restored;
  }

  // ------------------------------------------------------------------------------------------ reading

  /** The tab's state (settings and counters). */
  state(): Promise<TabState> {
    return this.run(() => ({ ...this.log.state }));
  }
  records(): Promise<ClassifiedRecord[]> {
    return this.run(() => [...this.log.records.values()]);
  }
  count(): Promise<number> {
    return this.run(() => this.log.records.size);
  }
  exportCapture(createdBy?: string): Promise<CaptureFile> {
    return this.run(() => this.log.exportCapture(createdBy));
  }

  /**
   * Every frame of the tab hands over what it holds now (its outbox, the MAIN world's posts); resolves once those
   * records are in the log, so a reader sees everything the page did before the call. A frame that does not answer
   * within SETTLE_TIMEOUT_MS (a stale script, a frame going away) is not waited for longer.
   */
  async settle(): Promise<void> {
    const waits = await this.run(() =>
      [...this.relays.values()].map(
        (relay) =>
          new Promise<void>((resolve) => {
            const id = `settle-${Math.random().toString(36).slice(2)}`;
            const timer = setTimeout(() => {
              this.flushes.delete(id);
              resolve();
            }, SETTLE_TIMEOUT_MS);
            this.flushes.set(id, () => {
              clearTimeout(timer);
              resolve();
            });
            if (!relay.post({ v: MESSAGES_VERSION, type: 'flush', id })) {
              this.flushes.get(id)?.();
              this.flushes.delete(id);
            }
          }),
      ),
    );
    await Promise.all(waits);
    // The batches came before each answer, so they are stored; reading processes them.
    await this.run(() => undefined);
  }

  /** A relay answered a `settle` hand-over: its batches were handed to this chain before this call. */
  flushed(id: string): void {
    const done = this.flushes.get(id);
    this.flushes.delete(id);
    if (done) {
      void this.run(done);
    }
  }

  // ------------------------------------------------------------------------------------------ settings

  /**
   * Set preserve log, pause, the buffer bound (evicting at once) and the extension-wide size cap. Checked first
   * (`checkOptions`: a wrong value rejects and changes nothing); the frames get their config, the panels the
   * state, or a snapshot when records were evicted. Resolves with the state once stored.
   */
  setOptions(options: unknown): Promise<TabState> {
    return this.run(async () => {
      const o = checkOptions(options);
      const s = this.log.state;
      if (o.preserveLog !== undefined) {
        s.preserveLog = o.preserveLog;
      }
      if (o.paused !== undefined) {
        s.paused = o.paused;
      }
      let removed: number[] = [];
      if (o.maxRecords !== undefined) {
        removed = this.log.setMaxRecords(o.maxRecords);
      }
      if (o.maxBytes !== undefined) {
        await this.host.setMaxBytes(o.maxBytes);
      }
      if (o.readyTimeoutMs !== undefined) {
        await this.host.setReadyTimeout(o.readyTimeoutMs);
      }
      this.pushConfig();
      if (removed.length) {
        this.toPanels(this.snapshot());
      } else {
        this.publishState();
      }
      await this.persist();
      return { ...this.log.state };
    });
  }

  /**
   * Set the tenant origin by hand, or null: back to the inferred one. Checked first (`checkTenantOrigin`); the
   * log is re-classified and the panels get a snapshot. Resolves with the state once stored.
   */
  setTenantOrigin(origin: unknown): Promise<TabState> {
    return this.run(async () => {
      this.log.setTenantOrigin(checkTenantOrigin(origin));
      this.toPanels(this.snapshot());
      await this.persist();
      return { ...this.log.state };
    });
  }

  /** Clear: the log is emptied (the embed sessions go on); the panels get the empty snapshot. */
  clear(): Promise<void> {
    return this.run(async () => {
      this.log.clear();
      this.toPanels(this.snapshot());
      await this.writeSnapshot();
    });
  }

  /** The extension-wide ready limit changed: the tab is judged again with it; the panels get what changed. */
  readyTimeoutChanged(): void {
    void this.run(() => {
      this.log.readyTimeoutMs = this.host.readyTimeoutMs();
      this.rediagnose();
      this.publishState();
    });
  }

  /** Judge what did not happen again now; the panels get the records that changed; the next limit is watched. */
  private rediagnose(): void {
    const changed = this.log.diagnose();
    if (changed.length) {
      this.toPanels({ v: MESSAGES_VERSION, type: 'update', records: changed });
    }
    this.watchLimits();
  }

  /** A limit runs out later (an embed not yet ready…): judge again then. */
  private watchLimits(): void {
    if (this.limitTimer !== null) {
      clearTimeout(this.limitTimer);
      this.limitTimer = null;
    }
    const at = this.log.nextDiagnosis;
    if (at === null || this.closed) {
      return;
    }
    this.limitTimer = setTimeout(
      () => {
        this.limitTimer = null;
        void this.run(() => this.rediagnose());
      },
      Math.max(0, at - Date.now()) + 5,
    );
  }

  /** The extension-wide size cap changed: every frame gets it (once the log is loaded, not after queued work). */
  maxBytesChanged(): void {
    void this.restored.then(() => this.pushConfig());
  }

  // ------------------------------------------------------------------------------------------ panels

  /** A panel subscribes: the snapshot, then the capture scope and the tab's sites, then live messages. */
  subscribe(port: Port): Promise<void> {
    return this.run(async () => {
      this.panels.add(port);
      post(port, this.snapshot());
      post(port, await this.host.captureMessage(this.tabId));
    });
  }

  unsubscribe(port: Port): Promise<void> {
    return this.run(() => {
      this.panels.delete(port);
    });
  }

  /** The tab's frames changed (a navigation): its panels get its sites anew, once the frames settle. */
  framesChanged(): void {
    clearTimeout(this.captureTimer);
    this.captureTimer = setTimeout(() => {
      this.captureTimer = undefined;
      void this.run(() => this.sendCapture());
    }, CAPTURE_NOTICE_MS);
  }

  /** The scope changed: frames whose site left it stop recording at once; the panels get the new scope. */
  rescope(): Promise<void> {
    return this.run(async () => {
      for (const [frameId, relay] of this.relays) {
        const mode = this.host.frameMode(relay.origin);
        relay.rescope(mode);
        if (mode === null) {
          this.relays.delete(frameId);
          relay.config(configOf(this.log.state, null, this.host.maxBytes()));
        }
      }
      this.pushConfig();
      await this.sendCapture();
    });
  }

  /**
   * Post as the host page (to an embed frame) or as the embed (to its parent), from the frame that must appear as
   * the sender: over its relay's port, or, when that port closed during a quiet period, by `tabs.sendMessage`.
   * `reply` gets the `send-result`.
   */
  send(msg: SendRequest, reply: (m: BackgroundToPanel) => void): Promise<void> {
    return this.run(() => this.route(msg, reply));
  }

  /** A relay answered a send (on whichever port of the tab it has now). */
  sendResult(result: PostResult): void {
    const cb = this.sends.get(result.id);
    this.sends.delete(result.id);
    cb?.(result.ok, result.error);
  }

  // ------------------------------------------------------------------------------------------ relays

  /** A relay in scope said hello: its frame joins the tab (the first hello of a new top document starts the log). */
  attachRelay(
    relay: RelayPort,
    hello: Extract<RelayToBackground, { type: 'hello' }>,
    documentId: string | undefined,
  ): Promise<void> {
    return this.run(async () => {
      const { frameId } = relay;
      if (!relay.gone) {
        this.relays.set(frameId, relay); // (a port closed meanwhile would take sends that the fallback can deliver)
      }
      let parentFrameId = frameId === 0 ? -1 : (this.log.frames.get(frameId)?.parentFrameId ?? -1);
      if (frameId !== 0) {
        try {
          const f = await browserApi().webNavigation?.getFrame({ tabId: this.tabId, frameId });
          if (f) {
            parentFrameId = f.parentFrameId;
          }
        } catch {
          /* frame gone */
        }
      }
      this.log.frames.set(frameId, { frameId, parentFrameId, url: hello.frameUrl });
      if (frameId !== 0 && hello.start !== undefined) {
        for (const n of this.navs.started(frameId, hello.frameUrl, hello.start)) {
          await this.addNavigation(n);
        }
      }
      if (hello.isTop && frameId === 0) {
        // Chrome: the navigation event may come later (or never, if the worker was asleep): start the log here.
        if (documentId && documentId !== this.meta.topDocumentId) {
          await this.topDocument(hello.frameUrl, documentId, hello.time);
        } else if (!this.log.state.pageUrl) {
          this.log.state.pageUrl = hello.frameUrl;
        }
      }
      relay.config(configOf(this.log.state, relay.mode, this.host.maxBytes()));
    });
  }

  /** A relay's port closed. */
  detachRelay(relay: RelayPort): Promise<void> {
    return this.run(() => {
      if (this.relays.get(relay.frameId) === relay) {
        this.relays.delete(relay.frameId);
      }
    });
  }

  /**
   * A relay's batch (JSON text of raw records of its frame, numbered per document): stored as is unless the tab
   * is paused, the relay left the scope meanwhile or the batch came already (a resend after a reconnection);
   * processed later (see LIVE_DELAY_MS). Acknowledged once stored; not acknowledged when storing fails (the relay
   * sends it again).
   */
  ingest(relay: RelayPort, batch: Extract<RelayToBackground, { type: 'records' }>): Promise<void> {
    return this.run(
      async () => {
        if (!relay.outOfScope) {
          const last = this.meta.docBatches[batch.docId];
          if (batch.batch > (last ?? 0)) {
            this.rememberBatch(batch.docId, batch.batch);
            try {
              await this.storeBatch(relay.frameId, batch.json);
            } catch (e) {
              // Not stored, not acknowledged: the relay sends it again, and that must not count as a repeat.
              if (last === undefined) {
                delete this.meta.docBatches[batch.docId];
              } else {
                this.meta.docBatches[batch.docId] = last;
              }
              throw e;
            }
          }
        }
        relay.ack(batch.batch);
      },
      { lazy: true },
    );
  }

  // ------------------------------------------------------------------------------------------ navigation

  /**
   * A document committed in one of the tab's frames (its page is in scope): a new top document starts a new log
   * unless preserve log is on, once per document; any navigation becomes a record.
   */
  navigated(nav: {
    frameId: number;
    parentFrameId?: number;
    url: string;
    documentId?: string;
    time: number;
  }): Promise<void> {
    return this.run(async () => {
      if (nav.frameId === 0) {
        await this.topDocument(nav.url, nav.documentId, nav.time);
        return;
      }
      this.log.frames.set(nav.frameId, {
        frameId: nav.frameId,
        parentFrameId: nav.parentFrameId ?? this.log.frames.get(nav.frameId)?.parentFrameId ?? 0,
        url: nav.url,
      });
      const relayComing = this.host.frameMode(originOf(nav.url)) !== null;
      for (const n of this.navs.committed({ frameId: nav.frameId, url: nav.url, time: nav.time }, relayComing)) {
        await this.addNavigation(n);
      }
    });
  }

  private async addNavigation(nav: FrameNav): Promise<void> {
    if (!this.closed) {
      await this.addRecords(nav.frameId, [navigationRecord(nav.frameId, nav.url, nav.time)]);
    }
  }

  /**
   * The tab's top document left the capture scope: its log ends there (kept as it was with preserve log), and
   * nothing of the new page is recorded, its address included.
   */
  leftScope(documentId: string | undefined): Promise<void> {
    return this.run(async () => {
      if (documentId && documentId === this.meta.topDocumentId) {
        return;
      }
      this.meta.topDocumentId = documentId;
      this.log.frames = new Map();
      if (this.log.state.preserveLog) {
        return;
      }
      this.log.reset(null);
      this.meta.docBatches = keepLast(this.meta.docBatches);
      await this.writeSnapshot();
      this.toPanels(this.snapshot());
    });
  }

  /** Resolves once the work queued so far has run. */
  async drain(): Promise<void> {
    await this.chain;
  }

  /** The tab is gone: no more timers and no more writes; queued work finishes (the registry deletes its log). */
  close(): void {
    this.closed = true;
    this.navs.releaseAll();
    clearTimeout(this.captureTimer);
    if (this.limitTimer !== null) {
      clearTimeout(this.limitTimer);
      this.limitTimer = null;
    }
    if (this.processTimer !== null) {
      clearTimeout(this.processTimer);
      this.processTimer = null;
    }
  }

  // ------------------------------------------------------------------------------------------ private

  /**
   * Run `fn` on the chain (after everything queued before it). The pending batches are processed first, so `fn`
   * sees the whole log; `lazy` (ingestion only) leaves them pending.
   */
  private run<T>(fn: () => Promise<T> | T, opts: { lazy?: boolean } = {}): Promise<T> {
    const next = this.chain.then(() => {
      if (!opts.lazy) {
        this.processPending();
      }
      return fn();
    });
    this.chain = next.catch((e) => console.warn('embed-inspector:', e));
    return next;
  }

  private async restore(): Promise<void> {
    let loaded: Awaited<ReturnType<typeof loadTab>> = null;
    try {
      loaded = await this.host.store.load(this.tabId);
    } catch (e) {
      console.warn('embed-inspector: could not load tab log', e);
    }
    if (!loaded) {
      return;
    }
    const tabId = this.tabId;
    const { meta, batches } = loaded;
    this.meta = { tabId, docBatches: meta.docBatches ?? {}, topDocumentId: meta.topDocumentId };
    const keep = settingsOf(meta.state);
    const first = batches[0]?.[1];
    this.log =
      first?.kind === 'snapshot'
        ? new TabLog({ ...first.state, ...keep }, JSON.parse(first.json) as ClassifiedRecord[], first.nextSeq, {
            sessionBase: first.session ?? null,
          })
        : new TabLog(newState(tabId, keep));
    this.log.readyTimeoutMs = this.host.readyTimeoutMs();
    for (const f of meta.frames ?? []) {
      this.log.frames.set(f.frameId, f);
    }
    for (const [n, b] of batches) {
      this.nextBatch = n + 1;
      if (b.kind !== 'raw') {
        continue;
      }
      if (b.seq0 !== undefined) {
        // (batches stored before processing continue the numbering; never below a seq already given)
        this.log.nextSeq = Math.max(this.log.nextSeq, b.seq0);
      }
      try {
        const raws = parseBatch(b.frameId, b.json);
        this.sinceSnapshot += raws.length;
        this.log.add(raws);
      } catch (e) {
        console.warn('embed-inspector: unreadable stored batch', n, e);
      }
    }
    // The worker may have slept past a limit: judge what did not happen now.
    this.log.diagnose();
    this.watchLimits();
  }

  private metaOf(): TabMeta {
    return { ...this.meta, state: { ...this.log.state }, frames: [...this.log.frames.values()] };
  }

  /** Write to storage; nothing once the tab closed (the registry deletes its log: nothing may write it back). */
  private commit(c: Commit): Promise<void> {
    return this.closed ? Promise.resolve() : this.host.store.commit(c);
  }

  /** Persist settings and state. */
  private persist(): Promise<void> {
    return this.commit({ meta: this.metaOf() });
  }

  /** Replace every stored batch by one snapshot of the held records (a new log, Clear, compaction). */
  private writeSnapshot(): Promise<void> {
    this.sinceSnapshot = 0;
    const value: StoredBatch = {
      kind: 'snapshot',
      nextSeq: this.log.nextSeq,
      state: { ...this.log.state },
      json: JSON.stringify([...this.log.records.values()]),
      ...(this.log.sessionBase ? { session: this.log.sessionBase } : {}),
    };
    return this.commit({ meta: this.metaOf(), clear: true, batch: { n: this.nextBatch++, value } });
  }

  /** Compaction: past the buffer bound, a snapshot replaces every stored batch. */
  private snapshotDue(): boolean {
    return this.sinceSnapshot > Math.max(this.log.state.maxRecords, 1000);
  }

  private toPanels(msg: BackgroundToPanel): void {
    for (const p of this.panels) {
      if (!post(p, msg)) {
        this.panels.delete(p);
      }
    }
  }
  private snapshot(): BackgroundToPanel {
    return {
      v: MESSAGES_VERSION,
      type: 'snapshot',
      state: this.panelState(),
      records: [...this.log.records.values()],
    };
  }
  private publishState(): void {
    this.toPanels({ v: MESSAGES_VERSION, type: 'state', state: this.panelState() });
  }
  /** The tab's state as panels see it, with the extension-wide size cap. */
  private panelState(): TabState {
    return { ...this.log.state, maxBytes: this.host.maxBytes(), readyTimeoutMs: this.host.readyTimeoutMs() };
  }
  private async sendCapture(): Promise<void> {
    if (this.panels.size) {
      this.toPanels(await this.host.captureMessage(this.tabId));
    }
  }

  private pushConfig(): void {
    for (const relay of this.relays.values()) {
      relay.config(configOf(this.log.state, relay.mode, this.host.maxBytes()));
    }
  }

  private rememberBatch(docId: string, batch: number): void {
    this.meta.docBatches[docId] = batch;
    if (Object.keys(this.meta.docBatches).length > MAX_DOCS * 2) {
      this.meta.docBatches = keepLast(this.meta.docBatches);
    }
  }

  /** Store a relay's batch as it came and schedule its processing; resolves when durable. */
  private async storeBatch(frameId: number, json: string): Promise<void> {
    if (this.log.state.paused) {
      return;
    }
    await this.commit({ meta: this.metaOf(), batch: { n: this.nextBatch++, value: { kind: 'raw', frameId, json } } });
    // Pending only once durable: a batch whose storage failed is not in the log either, so its resend is not doubled.
    this.pending.push({ frameId, json });
    this.pendingChars += json.length;
    this.scheduleProcessing();
  }

  private scheduleProcessing(): void {
    const live = this.panels.size > 0;
    if (this.pendingChars >= MAX_PENDING_CHARS) {
      this.processPending();
      return;
    }
    if (this.processTimer !== null) {
      if (live) {
        return; // due within LIVE_DELAY_MS already
      }
      clearTimeout(this.processTimer); // idle: wait for a pause in the stream
    }
    if (this.closed) {
      return;
    }
    this.processTimer = setTimeout(
      () => {
        this.processTimer = null;
        void this.run(() => {});
      },
      live ? LIVE_DELAY_MS : IDLE_MS,
    );
  }

  /**
   * Parse, classify, pair and publish the pending batches. They are added together: the log orders them by
   * capture time, whatever order they came in (each frame's records stay in the frame's order).
   */
  private processPending(): void {
    if (this.processTimer !== null) {
      clearTimeout(this.processTimer);
      this.processTimer = null;
    }
    if (!this.pending.length) {
      return;
    }
    const batches = this.pending;
    this.pending = [];
    this.pendingChars = 0;
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
    this.sinceSnapshot += raws.length;
    this.publish(this.log.add(raws));
    // Compaction, past the bound: the snapshot replaces every stored batch, processed now.
    if (this.snapshotDue()) {
      void this.writeSnapshot().catch((e) => console.warn('embed-inspector: snapshot', e));
    }
  }

  /** Add raw records of one frame to the log and to storage (compacting past the bound); publish; resolve when durable. */
  private async addRecords(frameId: number, raws: RawRecord[]): Promise<void> {
    if (this.log.state.paused) {
      return;
    }
    const seq0 = this.log.nextSeq;
    const res = this.log.add(raws.map((r) => ({ ...r, frameId })));
    this.sinceSnapshot += raws.length;
    const stored = this.snapshotDue()
      ? this.writeSnapshot()
      : this.commit({
          meta: this.metaOf(),
          batch: { n: this.nextBatch++, value: { kind: 'raw', seq0, frameId, json: JSON.stringify(raws) } },
        });
    this.publish(res);
    await stored;
  }

  private publish(res: AddResult): void {
    this.watchLimits();
    if (res.reclassified) {
      this.toPanels(this.snapshot());
      return;
    }
    if (res.removed.length) {
      this.toPanels({ v: MESSAGES_VERSION, type: 'removed', seqs: res.removed });
    }
    const from = res.reorderedFrom;
    if (from !== undefined) {
      // Late records: the held records from `from` on, in their new order, replace the panels' (usually a short tail).
      const records: ClassifiedRecord[] = [];
      for (let s = from; s < this.log.nextSeq; s++) {
        const r = this.log.records.get(s);
        if (r) {
          records.push(r);
        }
      }
      this.toPanels({ v: MESSAGES_VERSION, type: 'reorder', fromSeq: from, records });
      const before = res.updated.filter((r) => r.seq < from);
      if (before.length) {
        this.toPanels({ v: MESSAGES_VERSION, type: 'update', records: before });
      }
      this.publishState();
      return;
    }
    if (res.added.length) {
      this.toPanels({ v: MESSAGES_VERSION, type: 'records', records: res.added });
    }
    if (res.updated.length) {
      this.toPanels({ v: MESSAGES_VERSION, type: 'update', records: res.updated });
    }
    this.publishState();
  }

  /** A new top-level document: a new log unless preserve log is on. Once per document. */
  private async topDocument(url: string, documentId: string | undefined, time: number): Promise<void> {
    if (documentId && documentId === this.meta.topDocumentId) {
      return;
    }
    this.meta.topDocumentId = documentId;
    const top = this.log.frames.get(0);
    this.log.frames = new Map([[0, { ...(top ?? { parentFrameId: -1 }), frameId: 0, url }]]);
    if (!this.log.state.preserveLog) {
      this.log.reset(url);
      this.meta.docBatches = keepLast(this.meta.docBatches);
      await this.writeSnapshot(); // an empty snapshot: the new log
      this.toPanels(this.snapshot());
    }
    // (with preserve log, the navigation record starts the new page in the log: TabLog.newPage)
    await this.addRecords(0, [navigationRecord(0, url, time)]);
  }

  /** Route a send to the frame that must appear as its sender. */
  private route(msg: SendRequest, reply: (m: BackgroundToPanel) => void): void {
    const fail = (error: string) => reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok: false, error });
    // The panel sends data in the capture encoding (the port carries JSON only); the relay decodes it once.
    const data = msg.data;
    let frameId: number | undefined;
    let post: BackgroundToRelay;
    if (msg.from === 'host') {
      frameId = 0;
      post = {
        v: MESSAGES_VERSION,
        type: 'post',
        id: msg.id,
        target: 'child',
        childUrl: msg.frameUrl ?? this.embedFrameUrl(),
        data,
        targetOrigin: msg.targetOrigin,
      };
    } else {
      const frames = [...this.log.frames.values()].filter((f) => f.frameId !== 0);
      const tenant = this.log.state.tenantOrigin;
      const url = msg.frameUrl;
      const f =
        (url
          ? (frames.find((x) => x.url === url) ?? frames.find((x) => originOf(x.url) === originOf(url)))
          : undefined) ??
        (tenant ? frames.find((x) => originOf(x.url) === tenant) : undefined) ??
        // Never post from an arbitrary (possibly third-party) frame: only a lone child frame is a safe guess.
        (frames.length === 1 ? frames[0] : undefined);
      frameId = f?.frameId;
      post = { v: MESSAGES_VERSION, type: 'post', id: msg.id, target: 'parent', data, targetOrigin: msg.targetOrigin };
    }
    if (frameId === undefined) {
      fail(msg.from === 'host' ? 'no top frame in this tab' : 'no embed frame found in this tab');
      return;
    }
    const relay = this.relays.get(frameId);
    if (!relay) {
      // The frame's port closed while the page was quiet (the service worker stopped): reach its relay directly;
      // it posts, replies with the result, and its record of the post reconnects the port.
      const done = (r: PostResult | undefined) =>
        reply({
          v: MESSAGES_VERSION,
          type: 'send-result',
          id: msg.id,
          ok: !!r?.ok,
          error: r
            ? r.error
            : 'the page has no capture script (capture is off for this site, or the page was opened before it was turned on: reload it)',
        });
      let sent: Promise<unknown>;
      try {
        sent = Promise.resolve(browserApi().tabs.sendMessage(this.tabId, post, { frameId }));
      } catch (e) {
        sent = Promise.reject(e);
      }
      sent.then(
        (r) => done(r as PostResult | undefined),
        () => done(undefined),
      );
      return;
    }
    const timer = setTimeout(() => {
      this.sends.delete(msg.id);
      fail('the frame did not answer');
    }, SEND_TIMEOUT_MS);
    this.sends.set(msg.id, (ok, error) => {
      clearTimeout(timer);
      reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok, error });
    });
    if (!relay.post(post)) {
      this.sends.delete(msg.id);
      clearTimeout(timer);
      fail('the frame is gone');
    }
  }

  private embedFrameUrl(): string | undefined {
    const tenant = this.log.state.tenantOrigin;
    if (!tenant) {
      return undefined;
    }
    return [...this.log.frames.values()].find((f) => f.parentFrameId === 0 && originOf(f.url) === tenant)?.url;
  }
}

/** Post to a panel's port; false when it is gone. */
function post(port: Port, msg: BackgroundToPanel): boolean {
  try {
    port.postMessage(msg);
    return true;
  } catch {
    return false;
  }
}
