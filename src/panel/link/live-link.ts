/**
 * The link to the inspected tab as the act feature uses it: what the live tab says (its state, the frames its log
 * names, the connection) and sends correlated with their `send-result` by id. It reads no message itself: the
 * store (panel-store.ts) is the one reader of the background's messages, and keeps the live tab's records in a
 * record log even while an imported file is shown, so that the composer and replay still send to the current
 * embed frame; this reads them there.
 */
import type { TabState } from '../../shared/messages.ts';
import type { ConnectionStatus, PanelTransport } from './transports.ts';
import { originOf } from '../base/protocol.ts';
import type { FrameSeen } from '../log/frames-seen.ts';

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
export const newSendId = () => `ei-${Date.now().toString(36)}-${(++counter).toString(36)}`;

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
