/**
 * The link to the inspected tab as the act feature uses it: what the live tab says (its state, the frames its log
 * names, the connection) and sends correlated with their `send-result` by id. It reads no message itself: the
 * store (ui/panel-store.ts) is the one reader of the background's messages, and keeps the live tab's records in a
 * record log even while an imported file is shown, so that the composer and replay still send to the current
 * embed frame; this reads them there.
 */
import type { BackgroundToPanel, ClassifiedRecord, TabState } from '../../shared/messages.ts';
import type { ConnectionStatus, PanelTransport } from './transports.ts';
import { originOf } from '../log/protocol.ts';
import type { FrameSeen } from '../log/frames-seen.ts';
import { RecordLog, type LogOptions } from '../log/record-log.ts';

export type { FrameSeen } from '../log/frames-seen.ts';

export interface SendRequest {
  from: 'host' | 'embed';
  data: unknown;
  targetOrigin: string;
  frameUrl?: string;
}
export interface SendOutcome {
  id: string;
  ok: boolean;
  error?: string;
}

export interface LiveLink {
  readonly tabId: number | null;
  /** The source to show (`PanelStore.attach`) for the live tab's records. */
  readonly view: PanelTransport;
  /** The live tab's state, null until its first snapshot. */
  state(): TabState | null;
  status(): ConnectionStatus;
  /** Frames seen in the live log (posting, receiving or targeted), most recent first. */
  frames(): FrameSeen[];
  send(req: SendRequest): Promise<SendOutcome>;
  /** Hear of a change of the state, the status or the frames; returns the function that stops it. */
  onChange(fn: () => void): () => void;
  close(): void;
}

let counter = 0;
const newSendId = () => `ei-${Date.now().toString(36)}-${(++counter).toString(36)}`;

/** Sends waiting for their `send-result`, each resolved once: by its result, its timeout, or `close`. */
export class PendingSends {
  private waiters = new Map<string, (o: SendOutcome) => void>();
  constructor(private timeoutMs: number) {}

  /** A new send: `post` gets its id; the promise resolves with its outcome. */
  start(post: (id: string) => void): Promise<SendOutcome> {
    const id = newSendId();
    return new Promise<SendOutcome>((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiters.delete(id)) {
          resolve({ id, ok: false, error: 'no answer from the extension (is the page still open?)' });
        }
      }, this.timeoutMs);
      this.waiters.set(id, (o) => {
        clearTimeout(timer);
        resolve(o);
      });
      post(id);
    });
  }

  settle(o: SendOutcome): void {
    const w = this.waiters.get(o.id);
    if (w) {
      this.waiters.delete(o.id);
      w(o);
    }
  }

  closeAll(): void {
    for (const [id, w] of this.waiters) {
      w({ id, ok: false, error: 'closed' });
    }
    this.waiters.clear();
  }
}

/**
 * The inspected tab as the store keeps it (ui/panel-store.ts `connectLive`), and the link the act feature reads.
 * Its records are in the log shown while the live tab is shown (`show`), else in a log of its own (`hide` copies
 * what the log shown held), where its frames and tab state are read.
 */
export class LiveTab implements LiveLink {
  readonly tabId: number | null;
  /** The source the store attaches to show the live tab. */
  readonly view: PanelTransport;
  shown = false;
  private hidden: RecordLog | null = null;
  private connection: ConnectionStatus = 'connecting';
  private gotSnapshot = false;
  /** How many frames the live log named when last told (a change is told to the listeners). */
  private frameCount = 0;
  private sends: PendingSends;
  private listeners = new Set<() => void>();
  private stop = () => {};

  constructor(
    private under: PanelTransport,
    private shownLog: RecordLog,
    private opts: LogOptions & { timeoutMs?: number },
  ) {
    this.tabId = under.tabId;
    this.sends = new PendingSends(opts.timeoutMs ?? 8_000);
    this.view = {
      kind: under.kind,
      tabId: under.tabId,
      live: under.live,
      label: under.label,
      connect: () => {
        throw new Error('the live tab is shown through PanelStore.attach(link.view)');
      },
      send: (cmd) => under.send(cmd),
      ...(under.requestHostAccess ? { requestHostAccess: under.requestHostAccess } : {}),
    };
    for (const type of ['batch', 'reordered', 'replaced', 'synced'] as const) {
      shownLog.on(type, () => this.shown && this.framesMaybeChanged());
    }
  }

  /** Connect `under`: its messages go to the store's reader, its status to the store while the tab is shown. */
  connect(onMessage: (m: BackgroundToPanel) => void, onShownStatus: (s: ConnectionStatus) => void): void {
    this.stop = this.under.connect(onMessage, (s) => {
      this.connection = s;
      if (this.shown) {
        onShownStatus(s);
      }
      this.changed();
    });
  }

  /** The log that holds the live tab's records: the one shown, or its own while another source is. */
  log(): RecordLog {
    if (this.shown) {
      return this.shownLog;
    }
    if (!this.hidden) {
      const hidden = new RecordLog({ schedule: this.opts.schedule });
      for (const type of ['batch', 'reordered', 'replaced', 'synced'] as const) {
        hidden.on(type, () => this.hidden === hidden && this.framesMaybeChanged());
      }
      this.hidden = hidden;
    }
    return this.hidden;
  }
  /** The live tab is shown again: a fresh snapshot for the log shown. Returns the connection status. */
  show(): ConnectionStatus {
    this.shown = true;
    this.hidden = null;
    if (this.gotSnapshot) {
      this.under.send({ type: 'subscribe' });
    }
    return this.connection;
  }
  /** Another source is about to be shown: the live tab's records so far go on in a log of their own. */
  hide(): void {
    if (!this.shown) {
      return;
    }
    this.shownLog.flush();
    this.shown = false;
    this.hidden = null;
    this.log().load(this.shownLog.state, this.shownLog.all() as ClassifiedRecord[]);
  }
  snapshotLoaded(): void {
    this.gotSnapshot = true;
    this.changed();
  }
  settle(o: SendOutcome): void {
    this.sends.settle(o);
  }

  state(): TabState | null {
    return this.gotSnapshot ? this.log().state : null;
  }
  status(): ConnectionStatus {
    return this.connection;
  }
  frames(): FrameSeen[] {
    return this.log().framesSeen();
  }
  send(req: SendRequest): Promise<SendOutcome> {
    return this.sends.start((id) =>
      this.under.send({
        type: 'send',
        id,
        from: req.from,
        data: req.data,
        targetOrigin: req.targetOrigin,
        ...(req.frameUrl ? { frameUrl: req.frameUrl } : {}),
      }),
    );
  }
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  close(): void {
    this.stop();
    this.sends.closeAll();
  }

  /** Tell the listeners (the tab state, the status or the frames changed). */
  changed(): void {
    for (const fn of this.listeners) {
      fn();
    }
  }
  private framesMaybeChanged(): void {
    const n = this.log().framesSeen().length;
    if (n !== this.frameCount) {
      this.frameCount = n;
      this.changed();
    }
  }
}

/** Where to send: the tenant origin, the host origin, the candidate embed frames; or why nothing can be sent. */
export interface SendTarget {
  tenantOrigin: string | null;
  hostOrigin: string | null;
  embedFrames: FrameSeen[];
  /** Set when nothing can be sent; a sentence for the user. */
  blocked: string | null;
}

export function sendTarget(link: LiveLink | null): SendTarget {
  if (!link) {
    return {
      tenantOrigin: null,
      hostOrigin: null,
      embedFrames: [],
      blocked: 'Not attached to a tab: open the Embed panel in DevTools on the page to send messages.',
    };
  }
  const st = link.state();
  const tenantOrigin = st?.tenantOrigin ?? null;
  const hostOrigin = st?.pageUrl ? originOf(st.pageUrl) : null;
  const embedFrames = tenantOrigin ? link.frames().filter((f) => f.origin === tenantOrigin) : [];
  let blocked: string | null = null;
  if (link.status() !== 'connected') {
    blocked = 'Not connected to the extension yet: nothing can be sent.';
  } else if (!tenantOrigin) {
    blocked =
      'The tenant origin is unknown, so there is no safe target origin (Embed Inspector never sends to "*"). Set it in the toolbar (Tenant origin), or wait for the embed to load.';
  }
  return { tenantOrigin, hostOrigin, embedFrames, blocked };
}
