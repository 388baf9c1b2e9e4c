/**
 * The panels subscribed to a tab, and what they hear of it: a snapshot when they subscribe or when the log was
 * replaced or re-classified, then the changes (`records`, `update`, `reorder`, `removed`, `state`), and the
 * capture scope with the tab's sites. It is the only writer of that set; a panel whose port is gone is dropped.
 */
import type { BackgroundToPanel, TabState } from '../shared/messages.ts';
import type { Body } from '../shared/channel.ts';
import type { AddResult, TabLogView } from './tablog.ts';

/** A subscribed panel: its port as the panel hop's channel (stamps what is sent; throws once the port is gone). */
export interface PanelSink {
  send(body: Body<BackgroundToPanel>): void;
}
type CaptureBody = Body<Extract<BackgroundToPanel, { type: 'capture' }>>;

/** What the fan-out needs of the rest of the background (injected: unit tests give fakes). */
export interface FanoutHost {
  /** The extension-wide size cap of one captured message. */
  maxBytes(): number;
  /** How long an embed has to say ready, extension-wide. */
  readyTimeoutMs(): number;
  /** The panel's `capture` message for a tab: the scope and the tab's sites. */
  captureMessage(tabId: number): Promise<CaptureBody>;
}

/** Send to one panel; false when its port is gone. */
function sendTo(panel: PanelSink, body: Body<BackgroundToPanel>): boolean {
  try {
    panel.send(body);
    return true;
  } catch {
    return false;
  }
}

export class PanelFanout {
  private readonly panels = new Set<PanelSink>();

  constructor(
    private readonly tabId: number,
    private readonly host: FanoutHost,
    private readonly log: () => TabLogView,
  ) {}

  /** A panel watches the tab (batches are processed within LIVE_DELAY_MS). */
  get live(): boolean {
    return this.panels.size > 0;
  }

  /** A panel subscribes: the snapshot, then the capture scope and the tab's sites (then live messages). */
  async subscribe(panel: PanelSink): Promise<void> {
    this.panels.add(panel);
    sendTo(panel, this.snapshotBody());
    sendTo(panel, await this.host.captureMessage(this.tabId));
  }

  unsubscribe(panel: PanelSink): void {
    this.panels.delete(panel);
  }

  /** Every panel gets the whole log anew (a new log, Clear, a re-classification, an eviction by a new bound). */
  snapshot(): void {
    this.toPanels(this.snapshotBody());
  }

  /** Every panel gets the tab's state (settings and counters). */
  state(): void {
    this.toPanels({ type: 'state', state: this.panelState() });
  }

  /** Records already published changed (a diagnosis judged them again). */
  update(records: Body<Extract<BackgroundToPanel, { type: 'update' }>>['records']): void {
    if (records.length) {
      this.toPanels({ type: 'update', records });
    }
  }

  /** The capture scope and the tab's sites, to the panels there are. */
  async capture(): Promise<void> {
    if (this.panels.size) {
      this.toPanels(await this.host.captureMessage(this.tabId));
    }
  }

  /** What an `add` to the log changed. */
  added(res: AddResult): void {
    if (res.reclassified) {
      this.snapshot();
      return;
    }
    if (res.removed.length) {
      this.toPanels({ type: 'removed', seqs: res.removed });
    }
    const from = res.reorderedFrom;
    if (from !== undefined) {
      // Late records: the held records from `from` on, in their new order, replace the panels' (usually a short tail).
      const log = this.log();
      const records = [];
      for (let s = from; s < log.nextSeq; s++) {
        const r = log.records.get(s);
        if (r) {
          records.push(r);
        }
      }
      this.toPanels({ type: 'reorder', fromSeq: from, records });
      this.update(res.updated.filter((r) => r.seq < from));
      this.state();
      return;
    }
    if (res.added.length) {
      this.toPanels({ type: 'records', records: res.added });
    }
    this.update(res.updated);
    this.state();
  }

  /** The tab's state as panels see it, with the extension-wide settings. */
  private panelState(): TabState {
    return { ...this.log().state, maxBytes: this.host.maxBytes(), readyTimeoutMs: this.host.readyTimeoutMs() };
  }

  private snapshotBody(): Body<BackgroundToPanel> {
    return { type: 'snapshot', state: this.panelState(), records: [...this.log().records.values()] };
  }

  private toPanels(body: Body<BackgroundToPanel>): void {
    for (const p of this.panels) {
      if (!sendTo(p, body)) {
        this.panels.delete(p);
      }
    }
  }
}
