/**
 * The panel's link to the background: the one reader of its messages (a handler per type, `Handlers`), from the
 * source shown — the inspected tab, a capture file, a test's stand-in — and from the inspected tab while another
 * source is shown (`connectLive`: the composer and replay still send there). It wires them to the record log
 * (log/record-log.ts: the records and what belongs to them, the tab state) and to the timeline view
 * (timeline/timeline-view.ts: filters, order, selection, time base), and holds only what belongs to the link
 * itself — the connection status, the capture scope, the outcome of commands and of sends. It writes no record and
 * no view state: a message becomes a call of a log method, and the log and the view tell their readers through
 * their own typed events.
 *
 * `onChange` sums those events and the link's own up for the UI, one `Change` per event (changes.ts).
 */
import type { BackgroundToPanel, CaptureScopeView, TabSite } from '../../shared/messages.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { TimelineView } from '../timeline/timeline-view.ts';
import type { ConnectionStatus, PanelCommand, PanelTransport } from '../link/transports.ts';
import { dispatch, type Handlers } from '../../shared/channel.ts';
import { LiveTab, type LiveLink } from '../link/live-link.ts';
import { ChangeFeed, type Change, type LinkEvents } from './changes.ts';

export type { Change } from './changes.ts';

/** The capture scope and the inspected tab's sites, as the background last said (live tab only). */
export interface CaptureInfo {
  scope: CaptureScopeView;
  sites: TabSite[];
}
export interface SendResult {
  id: string;
  ok: boolean;
  error?: string;
}

/** What the store links: the record log and the timeline view over it (app/create-store.ts makes them). */
export interface StoreParts {
  log: RecordLog;
  timeline: TimelineView;
  /** How live batches are scheduled (the log's own; a live tab's log while another source is shown uses it too). */
  schedule?: (fn: () => void) => void;
}

export class PanelStore {
  readonly log: RecordLog;
  readonly timeline: TimelineView;
  private connection: ConnectionStatus = 'connecting';
  private scope: CaptureInfo | null = null;
  private scopeResult: SendResult | null = null;
  private note: string | null = null;
  private transport: PanelTransport | null = null;
  private changes: ChangeFeed;
  private schedule: StoreParts['schedule'];
  /** The link to the inspected tab (connectLive), when there is one. */
  private live: LiveTab | null = null;
  /** The source shown was just attached: its first snapshot replaces what was shown (later ones sync it). */
  private fresh = false;
  /** Where the message being read goes (set by `receive` for its handlers). */
  private to: { log: RecordLog; shown: boolean; live: boolean } | null = null;

  constructor(parts: StoreParts) {
    this.schedule = parts.schedule;
    this.log = parts.log;
    this.timeline = parts.timeline;
    this.changes = new ChangeFeed(this.log, this.timeline);
  }

  /** Hear of every change, summed up by `CHANGES` (changes.ts); returns the function that stops it. */
  onChange(fn: (c: Change) => void): () => void {
    return this.changes.onChange(fn);
  }
  private linkChanged(type: keyof LinkEvents): void {
    this.changes.link(type);
  }

  // ---------------------------------------------------------------------------------------- the link
  get status(): ConnectionStatus {
    return this.connection;
  }
  /** The capture scope and the tab's sites (null until the background says, and for a capture file). */
  get capture(): CaptureInfo | null {
    return this.scope;
  }
  /** The last scope change asked for from this panel and its outcome (error: a sentence for the user). */
  get captureResult(): SendResult | null {
    return this.scopeResult;
  }
  /** A note about a scope change that takes effect on the next load of the page (the mode of its sites). */
  get captureNote(): string | null {
    return this.note;
  }
  get transportInfo(): PanelTransport | null {
    return this.transport;
  }

  /** Show a transport's records (or the live tab's again: `live.view`); returns the function that detaches it. */
  attach(transport: PanelTransport): () => void {
    this.transport = transport;
    this.fresh = true;
    const live = this.live;
    if (live && transport === live.view) {
      this.setConnection(live.show());
      return () => {
        if (this.transport === transport) {
          this.transport = null;
        }
        live.hide();
      };
    }
    const stop = transport.connect(
      (m) => this.receive(m, this.transport === transport, false),
      (s) => this.setConnection(s),
    );
    return () => {
      stop();
      if (this.transport === transport) {
        this.transport = null;
      }
    };
  }

  /**
   * Link to the inspected tab through `under`, for as long as the panel lives: its messages come here whatever is
   * shown (live-link.ts: while another source is shown, its records go on into a log of their own).
   */
  connectLive(under: PanelTransport, opts: { timeoutMs?: number } = {}): LiveLink {
    const live = new LiveTab(under, this.log, { schedule: this.schedule, timeoutMs: opts.timeoutMs });
    this.live = live;
    live.connect(
      (m) => this.receive(m, live.shown, true),
      (s) => this.setConnection(s),
    );
    return live;
  }

  command(cmd: PanelCommand): void {
    this.transport?.send(cmd);
  }

  /** Clear: the background empties the log (the embed session goes on); the view empties at once. */
  clearLog(): void {
    this.command({ type: 'clear' });
    this.log.clear();
  }

  /** Set the note shown about a scope change (null clears it). */
  noteCapture(note: string | null): void {
    this.note = note;
    this.linkChanged('capture');
  }

  /** A message from the source shown (tests, the test handle). */
  handle(msg: BackgroundToPanel): void {
    const live = this.live;
    this.receive(msg, true, !!live && live.shown && this.transport === live.view);
  }

  /**
   * The one reader of the background's messages (and of its stand-ins': a capture file, a test): `shown`, the
   * message is of the source shown; `live`, of the inspected tab. A message of neither is stale and dropped.
   */
  private receive(msg: BackgroundToPanel, shown: boolean, live: boolean): void {
    if (!shown && !live) {
      return;
    }
    const outer = this.to; // (a handler's listener may deliver another message: a memory transport answers at once)
    this.to = { log: shown ? this.log : this.live!.log(), shown, live };
    try {
      dispatch(msg, this.handlers);
    } finally {
      this.to = outer;
    }
  }

  private readonly handlers: Handlers<BackgroundToPanel> = {
    subscribed: () => {}, // (the runtime transport's handshake; it does not pass it on)
    snapshot: (m) => {
      const { log, shown, live } = this.to!;
      // Another source's first snapshot replaces the records shown; a snapshot of the same source again (after a
      // service-worker restart, a re-classification) syncs them, and what the user opened stays (record-log.ts).
      if (shown && this.fresh) {
        this.fresh = false;
        log.load(m.state, m.records);
      } else {
        log.sync(m.state, m.records);
      }
      if (live) {
        this.live!.snapshotLoaded();
      }
      if (shown && this.note && m.records.length === 0) {
        this.noteCapture(null); // a new log: the page reloaded
      }
    },
    records: (m) => this.to!.log.enqueue(m.records),
    update: (m) => this.to!.log.enqueue(m.records, true),
    reorder: (m) => {
      const { log } = this.to!;
      log.flush(); // what came before it, first
      log.reorder(m.fromSeq, m.records);
    },
    removed: (m) => this.to!.log.forget(m.seqs),
    state: (m) => {
      const { log, live } = this.to!;
      log.setState(m.state);
      if (live) {
        this.live!.changed();
      }
    },
    // (the live link's sends: correlated with their send by id)
    'send-result': (m) => {
      if (this.to!.live) {
        this.live!.settle({ id: m.id, ok: m.ok, error: m.error });
      }
    },
    capture: (m) => {
      if (this.to!.shown) {
        this.scope = { scope: m.scope, sites: m.sites };
        this.linkChanged('capture');
      }
    },
    'capture-result': (m) => {
      if (this.to!.shown) {
        this.scopeResult = { id: m.id, ok: m.ok, error: m.error };
        this.linkChanged('capture');
      }
    },
  };

  private setConnection(s: ConnectionStatus): void {
    this.connection = s;
    this.linkChanged('status');
  }
}
