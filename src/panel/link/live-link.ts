/**
 * The link to the inspected tab, kept open whatever the panel shows: the store views the live log through
 * `view`, or an imported file while the link stays connected, so that the composer and replay can still
 * send to the current embed frame. Sends are correlated with their `send-result` by id. Pure (any transport).
 */
import type { BackgroundToPanel, ClassifiedRecord, TabState } from '../../shared/messages.ts';
import type { ConnectionStatus, PanelTransport } from './transports.ts';
import { originOf } from '../../protocol/origin.ts';

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
export interface FrameSeen {
  url: string;
  origin: string;
  last: number;
  count: number;
}

export interface LiveLink {
  readonly tabId: number | null;
  /** The transport the store attaches to while it shows the live tab. */
  readonly view: PanelTransport;
  state(): TabState | null;
  status(): ConnectionStatus;
  /** Frames seen in the live log (posting, receiving or targeted), most recent first. */
  frames(): FrameSeen[];
  send(req: SendRequest): Promise<SendOutcome>;
  onChange(fn: () => void): () => void;
  close(): void;
}

let counter = 0;
export const newSendId = () => `ei-${Date.now().toString(36)}-${(++counter).toString(36)}`;

export function createLiveLink(under: PanelTransport, opts: { timeoutMs?: number } = {}): LiveLink {
  const timeoutMs = opts.timeoutMs ?? 8_000;
  let state: TabState | null = null;
  let status: ConnectionStatus = 'connecting';
  let gotSnapshot = false;
  const frames = new Map<string, FrameSeen>();
  const waiters = new Map<string, (o: SendOutcome) => void>();
  const listeners = new Set<() => void>();
  let target: ((m: BackgroundToPanel) => void) | null = null;
  let statusTarget: ((s: ConnectionStatus) => void) | undefined;
  const changed = () => {
    for (const fn of listeners) {
      fn();
    }
  };

  const see = (url: string | undefined, time: number) => {
    if (!url) {
      return;
    }
    let f = frames.get(url);
    if (!f) {
      f = { url, origin: originOf(url) ?? url, last: time, count: 0 };
      frames.set(url, f);
    }
    f.count++;
    if (time > f.last) {
      f.last = time;
    }
  };
  const seeAll = (rs: ClassifiedRecord[]) => {
    for (const r of rs) {
      see(r.frameUrl, r.time);
      if (r.targetUrl) {
        see(r.targetUrl, r.time);
      }
    }
  };

  const onMessage = (m: BackgroundToPanel) => {
    switch (m.type) {
      case 'snapshot':
        gotSnapshot = true;
        state = m.state;
        frames.clear();
        seeAll(m.records);
        changed();
        break;
      case 'records': {
        const n = frames.size;
        seeAll(m.records);
        if (frames.size !== n) {
          changed();
        }
        break;
      }
      case 'state':
        state = m.state;
        changed();
        break;
      case 'send-result': {
        const w = waiters.get(m.id);
        if (w) {
          waiters.delete(m.id);
          w({ id: m.id, ok: m.ok, error: m.error });
        }
        break;
      }
    }
    target?.(m);
  };
  const stop = under.connect(onMessage, (s) => {
    status = s;
    statusTarget?.(s);
    changed();
  });

  const view: PanelTransport = {
    kind: under.kind,
    tabId: under.tabId,
    live: under.live,
    label: under.label,
    connect(onMsg, onStatus) {
      target = onMsg;
      statusTarget = onStatus;
      onStatus?.(status);
      if (gotSnapshot) {
        under.send({ type: 'subscribe' }); // a fresh snapshot for the store
      }
      return () => {
        if (target === onMsg) {
          target = null;
          statusTarget = undefined;
        }
      };
    },
    send: (cmd) => under.send(cmd),
    ...(under.requestHostAccess ? { requestHostAccess: under.requestHostAccess } : {}),
  };

  return {
    tabId: under.tabId,
    view,
    state: () => state,
    status: () => status,
    frames: () => [...frames.values()].sort((a, b) => b.last - a.last),
    send(req) {
      const id = newSendId();
      return new Promise<SendOutcome>((resolve) => {
        const timer = setTimeout(() => {
          if (waiters.delete(id)) {
            resolve({ id, ok: false, error: 'no answer from the extension (is the page still open?)' });
          }
        }, timeoutMs);
        waiters.set(id, (o) => {
          clearTimeout(timer);
          resolve(o);
        });
        under.send({
          type: 'send',
          id,
          from: req.from,
          data: req.data,
          targetOrigin: req.targetOrigin,
          ...(req.frameUrl ? { frameUrl: req.frameUrl } : {}),
        });
      });
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      stop();
      target = null;
      for (const [id, w] of waiters) {
        w({ id, ok: false, error: 'closed' });
      }
      waiters.clear();
    },
  };
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
