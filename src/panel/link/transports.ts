/**
 * The panel's only link to the world. The Solid app depends on `PanelTransport`, never on `chrome.*`:
 *   - `createRuntimeTransport(tabId)`: the extension (DevTools panel or a tab given `?tabId=`), a runtime port
 *     named PORT_PANEL to the background, reconnected when the service worker restarts;
 *   - `createMemoryTransport()`: in-memory, for unit tests (it plays a tiny background);
 *   - `createFileTransport(file)`: an imported capture file, classified locally, nothing live.
 */
import type { BackgroundToPanel, ClassifiedRecord, PanelToBackground, TabState } from '../../shared/messages.ts';
import { DEFAULT_MAX_RECORDS, newTabState, PORT_PANEL } from '../../shared/messages.ts';
import { panelChannel, stamp, type Body, type Wall } from '../../shared/channel.ts';
import { type CaptureFile, type CaptureRecord, checkRecords, causalOrder } from '../log/protocol.ts';
import { sitePattern } from '../../shared/site-pattern.ts';
import { browserApi, findBrowserApi } from '../../shared/browser-api.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A panel → background message without the version and tab id (the channel and the transport add them). */
export type PanelCommand = DistributiveOmit<PanelToBackground, 'v' | 'tabId'>;
/** What a stand-in background delivers: the message without its version (`stamp` adds it, as the channel does). */
const deliver = (to: ((msg: BackgroundToPanel) => void) | null, body: Body<BackgroundToPanel>) =>
  to?.(stamp<BackgroundToPanel>(body));
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected' | 'offline';

export interface PanelTransport {
  readonly kind: 'runtime' | 'memory' | 'file';
  /** The inspected tab, when there is one. */
  readonly tabId: number | null;
  /** Records arrive live (a page is being captured), as opposed to a fixed set (an imported file). */
  readonly live: boolean;
  /** A short human description: "tab 12", "capture file session.json". */
  readonly label: string;
  /**
   * Start receiving. The transport delivers a `snapshot` first (and again after a reconnect), then `records`,
   * `state` and `send-result` messages. Returns a function that disconnects.
   */
  connect(onMessage: (msg: BackgroundToPanel) => void, onStatus?: (status: ConnectionStatus) => void): () => void;
  send(cmd: PanelCommand): void;
  /**
   * Ask the browser for host access to these sites (`<all_urls>`: every site). Call it straight from a click:
   * `permissions.request` needs the user's gesture. Resolves true when access is there.
   */
  requestHostAccess?(origins: string[] | '<all_urls>'): Promise<boolean>;
}

/** The panel's state before a snapshot: the shared new tab state. */
export const emptyState = (tabId = -1, over: Partial<TabState> = {}): TabState => newTabState(tabId, over);

// ------------------------------------------------------------------------------------------ runtime
interface RuntimePort extends Wall {
  disconnect(): void;
  onDisconnect: { addListener(fn: () => void): void };
}
type Connect = (info: { name: string }) => RuntimePort;

/**
 * How long a new port waits before it is dropped and opened again (ms; doubled for each port in a row that was not
 * answered, up to 8×; a port closed by a worker's stop is not one): `ackMs` for the worker's word that it heard the
 * subscribe (sent as it reads it: the worker runs and has the port), `snapshotMs` for the tab's log after it. A port
 * that the browser connected but no worker ever answered (a worker stopping as it was woken) would otherwise leave
 * the panel "connecting" until it is closed; a worker that is only slow to read a large log is given longer.
 */
export interface Handshake {
  ackMs: number;
  snapshotMs: number;
}
const HANDSHAKE: Handshake = { ackMs: 1_500, snapshotMs: 5_000 };

/**
 * Watches a new port's answers (`heard` each message's type) and calls `giveUp` once one is late: the `subscribed`
 * word within `ackMs`, then the snapshot within `snapshotMs` (a snapshot first stands for both). Done at the snapshot.
 */
function watchAnswers(t: Handshake, giveUp: (what: string) => void) {
  let done = false;
  let timer = setTimeout(() => giveUp('no answer from the background'), t.ackMs);
  return {
    /** Returns true for the answer that ends the handshake (the snapshot). */
    heard(type: string): boolean {
      if (done || (type !== 'subscribed' && type !== 'snapshot')) {
        return false;
      }
      clearTimeout(timer);
      if (type === 'subscribed') {
        timer = setTimeout(() => giveUp('no log from the background'), t.snapshotMs);
        return false;
      }
      done = true;
      return true;
    },
    stop(): void {
      clearTimeout(timer);
    },
  };
}

/** The extension transport. `connectFn` defaults to the extension API's `runtime.connect` (injectable for tests). */
export function createRuntimeTransport(
  tabId: number,
  connectFn?: Connect,
  handshake: Partial<Handshake> = {},
): PanelTransport {
  const timing = { ...HANDSHAKE, ...handshake };
  let stopped = false;
  let port: RuntimePort | null = null;
  let retry = 0;
  let unanswered = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let channel: ReturnType<typeof panelChannel> | null = null;
  const queue: PanelCommand[] = [];
  const post = (cmd: PanelCommand) => channel?.send({ ...cmd, tabId } as Body<PanelToBackground>);

  const getConnect = async (): Promise<Connect> => {
    if (connectFn) {
      return connectFn;
    }
    const api = browserApi();
    return (info) => api.runtime.connect(info) as unknown as RuntimePort;
  };

  return {
    kind: 'runtime',
    tabId,
    live: true,
    label: `tab ${tabId}`,
    connect(onMessage, onStatus) {
      const open = async () => {
        if (stopped) {
          return;
        }
        onStatus?.('connecting');
        let p: RuntimePort;
        try {
          p = (await getConnect())({ name: PORT_PANEL });
        } catch (err) {
          console.warn('[embed-inspector] cannot connect to the background', err);
          onStatus?.('offline');
          return;
        }
        if (stopped) {
          p.disconnect();
          return;
        }
        port = p;
        channel = panelChannel(p, (why) => console.warn('[embed-inspector]', why));
        // The port is gone (the MV3 service worker was stopped or restarted, or it never answered): reconnect and
        // re-subscribe (a new snapshot follows).
        const lost = () => {
          if (port !== p) {
            return; // (this port was given up already)
          }
          port = null;
          channel = null;
          answers.stop();
          if (stopped) {
            return;
          }
          onStatus?.('disconnected');
          const delay = Math.min(5_000, 100 * 2 ** retry++);
          timer = setTimeout(open, delay);
        };
        const scale = 2 ** Math.min(3, unanswered);
        const answers = watchAnswers({ ackMs: timing.ackMs * scale, snapshotMs: timing.snapshotMs * scale }, (what) => {
          if (port === p) {
            console.warn(`[embed-inspector] ${what}: connecting again`);
            unanswered++;
            lost();
            p.disconnect();
          }
        });
        channel.listen((msg) => {
          if (answers.heard(msg.type)) {
            retry = 0;
            unanswered = 0;
            onStatus?.('connected');
          }
          if (msg.type !== 'subscribed') {
            onMessage(msg);
          }
        });
        p.onDisconnect.addListener(lost);
        post({ type: 'subscribe' });
        for (const cmd of queue.splice(0)) {
          post(cmd);
        }
      };
      void open();
      return () => {
        stopped = true;
        clearTimeout(timer);
        port?.disconnect();
        port = null;
        channel = null;
      };
    },
    send(cmd) {
      if (channel) {
        post(cmd);
      } else if (cmd.type !== 'subscribe') {
        queue.push(cmd);
      }
    },
    requestHostAccess: requestHostAccess,
  };
}

interface PermissionsApi {
  request(p: { origins: string[] }): Promise<boolean>;
  contains(p: { origins: string[] }): Promise<boolean>;
}
/**
 * Host access for sites about to be captured. The manifest asks for every site at install (automation turns
 * capture on with no click, which `permissions.request` refuses), so this matters where the user withheld site
 * access (Chrome: "on click" / "on specific sites"): Chrome asks the user here, from the DevTools panel's click.
 * Firefox gives a DevTools panel no `permissions` API: there the install-time grant applies (about:addons).
 */
function requestHostAccess(origins: string[] | '<all_urls>'): Promise<boolean> {
  const perms = findBrowserApi()?.permissions as PermissionsApi | undefined;
  if (!perms?.request) {
    return Promise.resolve(true);
  }
  const firefox = typeof location !== 'undefined' && location.protocol === 'moz-extension:';
  const patterns = origins === '<all_urls>' ? ['<all_urls>'] : origins.map((o) => sitePattern(o, firefox));
  // Without a gesture (a click made by a script) the request is refused: access that is there still counts.
  return perms.request({ origins: patterns }).catch(() => perms.contains({ origins: patterns }).catch(() => false));
}

// ------------------------------------------------------------------------------------------ memory
export interface MemoryTransport extends PanelTransport {
  /** Commands the panel sent, in order. */
  readonly sent: PanelCommand[];
  state: TabState;
  records: ClassifiedRecord[];
  /** Deliver a message to the panel as the background would. */
  emit(msg: Body<BackgroundToPanel>): void;
  /** Append live records (kept, and delivered as a `records` message). */
  push(records: ClassifiedRecord[]): void;
  connected(): boolean;
}

/** An in-memory background: keeps records and state, answers subscribe/clear/set-options/set-tenant-origin/send/set-capture. */
export function createMemoryTransport(
  init: {
    tabId?: number;
    state?: Partial<TabState>;
    records?: ClassifiedRecord[];
    live?: boolean;
    label?: string;
  } = {},
): MemoryTransport {
  let listener: ((msg: BackgroundToPanel) => void) | null = null;
  const tabId = init.tabId ?? 1;
  const t: MemoryTransport = {
    kind: 'memory',
    tabId,
    live: init.live ?? true,
    label: init.label ?? 'in-memory',
    sent: [],
    state: emptyState(tabId, init.state),
    records: [...(init.records ?? [])],
    emit(msg) {
      deliver(listener, msg);
    },
    push(records) {
      t.records.push(...records);
      t.emit({ type: 'records', records });
    },
    connected: () => listener !== null,
    connect(onMessage, onStatus) {
      listener = onMessage;
      onStatus?.('connected');
      t.emit({ type: 'snapshot', state: t.state, records: t.records });
      return () => {
        listener = null;
      };
    },
    send(cmd) {
      t.sent.push(cmd);
      switch (cmd.type) {
        case 'subscribe':
          t.emit({ type: 'snapshot', state: t.state, records: t.records });
          break;
        case 'clear':
          t.records = [];
          t.emit({ type: 'snapshot', state: { ...t.state, dropped: 0 }, records: [] });
          break;
        case 'set-options':
          t.state = { ...t.state, ...cmd.options };
          t.emit({ type: 'state', state: t.state });
          break;
        case 'set-tenant-origin':
          t.state = { ...t.state, tenantOrigin: cmd.origin, tenantOriginSource: cmd.origin ? 'manual' : null };
          t.emit({ type: 'state', state: t.state });
          break;
        case 'send':
          t.emit({ type: 'send-result', id: cmd.id, ok: true });
          break;
        case 'set-capture':
          t.emit({ type: 'capture-result', id: cmd.id, ok: true });
          break;
      }
    },
  };
  return t;
}

// ------------------------------------------------------------------------------------------ capture file
/**
 * Classify a whole capture as the command line does (`embed-inspector check`): stateless and session rules,
 * the tenant origin given, else inferred. Returns the records, in causal order, and the tenant origin used.
 */
export function checkFileRecords(
  records: ReadonlyArray<CaptureRecord | ClassifiedRecord>,
  tenantOrigin: string | null,
  endedAt?: number,
): { records: ClassifiedRecord[]; tenantOrigin: string | null; inferred: boolean } {
  // In causal order, as `check` reads it (a capture made before the log was ordered lists records as they arrived).
  const plain = causalOrder(
    records.map((r) => {
      const { verdict: _v, issues: _i, ...rest } = r as ClassifiedRecord;
      return rest as CaptureRecord;
    }),
  );
  const res = checkRecords(plain, { tenantOrigin, endedAt });
  const bySeq = new Map(res.messages.map((m) => [m.seq, m]));
  const out = plain.map((r) => {
    const m = bySeq.get(r.seq);
    // (a navigation has no verdict of its own; its issues are the embed's address and what it never said)
    return {
      ...r,
      verdict: r.navigation ? 'foreign' : (m?.verdict ?? 'foreign'),
      issues: m?.issues ?? [],
    } as ClassifiedRecord;
  });
  return {
    records: out,
    tenantOrigin: res.summary.tenantOrigin,
    inferred: !tenantOrigin && !!res.summary.tenantOrigin,
  };
}

/** An imported capture file: classified here (the same verdicts as `embed-inspector check`), nothing live; editing the tenant origin re-classifies. */
export function createFileTransport(file: CaptureFile, name = 'capture file'): PanelTransport {
  // The capture ended when it was written: what did not happen is judged then, as `check` does.
  const created = file.meta?.createdAt ? Date.parse(file.meta.createdAt) : Number.NaN;
  const endedAt = Number.isFinite(created) ? created : undefined;
  const first = checkFileRecords(file.messages, file.tenantOrigin ?? null, endedAt);
  let state = emptyState(-1, {
    tenantOrigin: first.tenantOrigin,
    tenantOriginSource: first.tenantOrigin ? (first.inferred ? 'embed-frame' : 'file') : null,
    dropped: file.meta?.dropped ?? 0,
    pageUrl: file.meta?.pageUrl ?? null,
    maxRecords: Math.max(DEFAULT_MAX_RECORDS, file.messages.length),
    foreignCount: first.records.filter((r) => r.verdict === 'foreign' && !r.navigation).length,
  });
  let records = first.records;
  let listener: ((msg: BackgroundToPanel) => void) | null = null;
  const emit = (msg: Body<BackgroundToPanel>) => deliver(listener, msg);
  return {
    kind: 'file',
    tabId: null,
    live: false,
    label: name,
    connect(onMessage, onStatus) {
      listener = onMessage;
      onStatus?.('offline');
      emit({ type: 'snapshot', state, records });
      return () => {
        listener = null;
      };
    },
    send(cmd) {
      switch (cmd.type) {
        case 'subscribe':
          emit({ type: 'snapshot', state, records });
          break;
        case 'clear':
          records = [];
          emit({ type: 'snapshot', state, records });
          break;
        case 'set-options':
          state = { ...state, ...cmd.options };
          emit({ type: 'state', state });
          break;
        case 'set-tenant-origin': {
          const next = checkFileRecords(records, cmd.origin, endedAt);
          records = next.records;
          state = {
            ...state,
            tenantOrigin: next.tenantOrigin,
            tenantOriginSource: next.tenantOrigin ? (next.inferred ? 'embed-frame' : 'manual') : null,
          };
          emit({ type: 'snapshot', state, records });
          break;
        }
        case 'send':
          emit({
            type: 'send-result',
            id: cmd.id,
            ok: false,
            error: 'an imported capture file is not connected to a page',
          });
          break;
      }
    },
  };
}
