/**
 * The relay's link to the background: batches of records over a runtime Port, kept until acknowledged
 * (the background acknowledges after storing them), resent after a reconnection. The service worker may be
 * stopped at any time: the port then disconnects, the relay buffers, reconnects (which wakes the worker
 * up) and resends. Nothing is dropped.
 */
import {
  PORT_CAPTURE,
  spillKeyOf,
  type BackgroundToRelay,
  type RelayToBackground,
  type SpilledBatches,
} from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { relayChannel, stamp, type Body, type Channel } from '../shared/channel.ts';

type Port = Runtime.Port;
/** Batch size bound, in UTF-16 units of JSON. */
const MAX_BATCH_CHARS = 4_000_000;
/**
 * What a frame going away writes to the extension's storage at most, in UTF-16 units (the storage's quota is 10 MB
 * in all, counted as UTF-8 JSON, in which these strings are written again, escaped).
 */
export const MAX_SPILL_CHARS = 1_000_000;
export interface RuntimeLike {
  connect(info: { name: string }): Port;
}

export interface LinkOptions {
  runtime: RuntimeLike;
  hello: () => Omit<Extract<RelayToBackground, { type: 'hello' }>, 'v' | 'type' | 'docId' | 'sealed'>;
  onMessage: (msg: BackgroundToRelay) => void;
  /** Flush delay, ms. */
  delay?: number;
  /** Flush at once past this many parts. */
  maxParts?: number;
  /**
   * After each flush: nothing is queued any more (sent, or kept unacknowledged for a resend); and when the first answer
   * on a port lets what was sent on it go (`waiting`).
   */
  flushed?: () => void;
  /** The port closed while records were queued or not acknowledged (they wait for the next one). */
  dropped?: () => void;
  /** Write `value` under `key` in the extension's storage (`spill`). */
  store?: (key: string, value: SpilledBatches) => void;
}

export class Link {
  readonly docId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  private port: Port | null = null;
  /** The typed channel over `port` (stamps what it sends, drops what is not of this version). */
  private channel: Channel<RelayToBackground, BackgroundToRelay> | null = null;
  private parts: string[] = [];
  /** The lines of the page's world that the queued parts stand for (relay-merge.ts `Untrusted`), in order. */
  private lines: string[] = [];
  private bytes = 0;
  private unacked = new Map<number, { json: string; lines: string[] }>();
  private nextBatch = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerSoon = false;
  private retry = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private dead = false;
  /** Nothing leaves while this says so (a page being prerendered: `hold`). */
  private holding: (() => boolean) | null = null;
  /** The background has answered on the current port (so a worker runs behind it). */
  private heard = false;
  /** This document's key for what it writes to storage as it goes ('spill-key'). */
  private spillKey: string | null = null;

  constructor(private opts: LinkOptions) {}

  /**
   * Queue one JSON-serialized record, or several joined by commas, with the lines of the page's world its entries
   * stand for. `soon`: send at the end of this task (posts: so that a post usually reaches the background before its
   * delivery, seen by another frame).
   */
  push(part: string, soon = false, lines: readonly string[] = []): void {
    this.parts.push(part);
    this.bytes += part.length;
    for (let i = 0; i < lines.length; i++) {
      this.lines.push(lines[i]);
      this.bytes += lines[i].length;
    }
    // Runtime messages are limited (64 MB in Chrome): keep batches to a few MB. Sent now, but `flushed` is said at the
    // end of the task: the caller may be in the middle of what it pushes (a slice of the relay's drain, relay.ts).
    if (this.bytes >= MAX_BATCH_CHARS) {
      this.sendQueued();
      this.schedule(0);
    } else if (soon || this.parts.length >= (this.opts.maxParts ?? 500)) {
      this.schedule(0);
    } else {
      this.schedule(this.opts.delay ?? 30);
    }
  }

  send(msg: Body<RelayToBackground>): void {
    try {
      if (this.connect()) {
        this.channel?.send(msg);
      }
    } catch {
      /* resent state is in unacked */
    }
  }

  /** Records queued or not yet acknowledged. */
  get backlog(): number {
    return this.parts.length + this.unacked.size;
  }

  /** Parts queued, not yet sent. */
  get queued(): number {
    return this.parts.length;
  }

  /**
   * Records on no answered port: queued, or sent on a port that closed before the background acknowledged them, or on
   * one no worker has answered yet (Chromium drops it with the frame if it goes first: `spill`).
   */
  get waiting(): number {
    if (this.dead) {
      return 0; // (the extension is gone: nothing will leave, and nothing is held for it)
    }
    return this.parts.length + (this.port && this.heard ? 0 : this.unacked.size);
  }

  private schedule(ms: number) {
    if (this.timer !== null) {
      if (ms > 0 || this.timerSoon) {
        return; // already due as soon or sooner (no timer churn per record)
      }
      clearTimeout(this.timer);
    }
    this.timerSoon = ms === 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, ms);
  }

  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.parts.length) {
      this.sendQueued();
    } else if (!this.port && this.unacked.size) {
      // Sent on a port that closed: a flush (the page going away) resends now rather than at the retry.
      this.connect();
    }
    this.opts.flushed?.();
  }

  private sendQueued(): void {
    const sent = { json: `[${this.parts.join(',')}]`, lines: this.lines };
    this.parts = [];
    this.lines = [];
    this.bytes = 0;
    const batch = this.nextBatch++;
    this.unacked.set(batch, sent);
    // A new connection resends every unacknowledged batch, this one included.
    const had = this.port;
    const port = this.connect();
    if (port && port === had && this.channel) {
      this.post(port, this.channel, batch, sent);
    }
  }

  private post(
    port: Port,
    channel: Channel<RelayToBackground, BackgroundToRelay>,
    batch: number,
    { json, lines }: { json: string; lines: string[] },
  ) {
    try {
      channel.send({ type: 'records', docId: this.docId, batch, json, ...(lines.length ? { lines } : {}) });
    } catch {
      this.drop(port);
    }
  }

  connect(): Port | null {
    if (this.port || this.dead || this.held) {
      return this.port;
    }
    let port: Port;
    try {
      port = this.opts.runtime.connect({ name: PORT_CAPTURE });
    } catch {
      this.dead = true; // extension reloaded or removed: this document's scripts are orphans now
      return null;
    }
    this.port = port;
    const channel = relayChannel(port);
    this.channel = channel;
    this.heard = false;
    channel.listen((msg) => {
      if (!this.heard && this.port === port) {
        this.heard = true;
        if (this.unacked.size) {
          this.opts.flushed?.(); // (what waited on this port is on an answered one now)
        }
      }
      if (msg.type === 'spill-key') {
        this.spillKey = msg.key;
        return;
      }
      if (msg.type === 'ack') {
        this.retry = 0;
        for (const b of [...this.unacked.keys()]) {
          if (b <= msg.batch) {
            this.unacked.delete(b);
          }
        }
        return;
      }
      this.opts.onMessage(msg);
    });
    port.onDisconnect.addListener(() => this.drop(port));
    try {
      const sealed = this.spillKey ? { sealed: true as const } : {};
      channel.send({ type: 'hello', docId: this.docId, ...this.opts.hello(), ...sealed });
      for (const [batch, sent] of this.unacked) {
        this.post(port, channel, batch, sent);
      }
    } catch {
      this.drop(port);
    }
    return this.port;
  }

  private drop(port: Port) {
    if (this.port !== port) {
      return;
    }
    this.port = null;
    this.channel = null;
    try {
      port.disconnect();
    } catch {
      /* already */
    }
    if (this.unacked.size || this.parts.length) {
      this.opts.dropped?.();
      this.reconnectSoon();
    }
  }

  private reconnectSoon() {
    if (this.retryTimer !== null || this.dead) {
      return;
    }
    const ms = Math.min(2000, 20 * 2 ** this.retry++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush(); // (connects: to send what is queued, or to resend what was not acknowledged)
    }, ms);
  }

  /**
   * The frame is going. What waits on a port the background has not answered (the worker stopped, and this port was
   * opened to wake it: Chromium drops it with the frame) is also written to the extension's storage, which the
   * background reads as it starts (background/spill.ts). A batch that comes both ways is stored once.
   */
  spill(): void {
    if (this.dead || !this.spillKey || !this.unacked.size || (this.port && this.heard) || !this.opts.store) {
      return;
    }
    const batches: SpilledBatches['batches'] = [];
    let chars = 0;
    for (const [batch, { json, lines }] of this.unacked) {
      chars += json.length + lines.reduce((n, l) => n + l.length, 0);
      if (chars > MAX_SPILL_CHARS) {
        break;
      }
      batches.push(lines.length ? { batch, json, lines } : { batch, json });
    }
    if (batches.length) {
      const value = stamp<SpilledBatches>({ type: 'spill', key: this.spillKey, docId: this.docId, batches });
      try {
        // (a key per write: a frame that goes twice, its page posting in its own pagehide listener, writes twice)
        this.opts.store(spillKeyOf(value), value);
      } catch {
        /* the extension is gone */
      }
    }
  }

  /** Connect now (so that the background learns about this frame and sends its config). */
  start(): void {
    this.connect();
  }

  /**
   * The page is shown again from the back/forward cache. The browser closed its ports as it entered the cache, and
   * the page, frozen then, may not have been told: in Chromium a restored page went on posting on its old port and
   * nothing it said was recorded (capture-bfcache.test.ts). A new port, on which what was not acknowledged is sent
   * again (the background stores a batch once).
   */
  restart(): void {
    this.holding = null;
    if (this.port) {
      this.drop(this.port);
    }
    this.connect();
  }

  /**
   * Open no port while `holds()` says so (the page is being prerendered), or until `restart`. Chromium names a
   * prerendered page's top frame as a frame of its own (not 0) on every port it opens, and the tab still shows the
   * page before, whose log its records would join. Its records wait here, as if the port had closed.
   */
  hold(holds: () => boolean): void {
    this.holding = holds;
  }

  /** Nothing leaves now (`hold`). */
  get held(): boolean {
    if (this.holding?.()) {
      return true;
    }
    this.holding = null;
    return false;
  }
}
