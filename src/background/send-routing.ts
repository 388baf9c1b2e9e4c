/**
 * Sends from a panel or the automation API: a post as the host page (to an embed frame) or as the embed (to its
 * parent), from the frame that must appear as the sender, over its relay's port (`post`, answered by
 * `post-result`), or, when that port closed during a quiet period, by `tabs.sendMessage`. This part holds the
 * sends waiting for their frame's answer and is their only writer.
 */
import type { BackgroundToPanel, BackgroundToRelay, PanelToBackground, RelayToBackground } from '../shared/messages.ts';
import { browserApi } from '../shared/browser-api.ts';
import { accept, stamp, type Body } from '../shared/channel.ts';
import { originOf } from '../protocol/origin.ts';
import type { TabLogView } from './tablog.ts';
import type { RelayPort } from './relay-port.ts';

/** A send's frame has this long to answer. */
export const SEND_TIMEOUT_MS = 5000;

export type SendRequest = Extract<PanelToBackground, { type: 'send' }>;
export type PostResult = Extract<RelayToBackground, { type: 'post-result' }>;
/** Where a send's result goes (the panel's port, the automation API's promise). */
export type SendReply = (m: Body<Extract<BackgroundToPanel, { type: 'send-result' }>>) => void;

const NO_SCRIPT =
  'the page has no capture script (capture is off for this site, or the page was opened before it was turned on: reload it)';
const OTHER_VERSION = "the page's capture script is of another version of the extension (reload the page)";

export class SendRouting {
  /** Sends waiting for their frame's answer: request id → callback. */
  private readonly sends = new Map<string, (ok: boolean, error?: string) => void>();

  constructor(
    private readonly tabId: number,
    private readonly log: () => TabLogView,
    private readonly relayOf: (frameId: number) => RelayPort | undefined,
    private readonly onDrop?: (why: string, raw: unknown) => void,
  ) {}

  /** Route a send to the frame that must appear as its sender; `reply` gets the `send-result`. */
  route(msg: Body<SendRequest>, reply: SendReply): void {
    const fail = (error: string) => reply({ type: 'send-result', id: msg.id, ok: false, error });
    const to = this.target(msg);
    if (!to) {
      fail(msg.from === 'host' ? 'no top frame in this tab' : 'no embed frame found in this tab');
      return;
    }
    const { frameId, post } = to;
    const relay = this.relayOf(frameId);
    if (!relay) {
      // The frame's port closed while the page was quiet (the service worker stopped): reach its relay directly;
      // it posts, replies with the result, and its record of the post reconnects the port.
      const done = (r: unknown) => {
        const answer = r === undefined ? null : accept<RelayToBackground>('relay->background', r, this.onDrop);
        const result = answer?.type === 'post-result' ? answer : undefined;
        reply({
          type: 'send-result',
          id: msg.id,
          ok: !!result?.ok,
          error: result ? result.error : r === undefined ? NO_SCRIPT : OTHER_VERSION,
        });
      };
      let sent: Promise<unknown>;
      try {
        sent = Promise.resolve(browserApi().tabs.sendMessage(this.tabId, stamp<BackgroundToRelay>(post), { frameId }));
      } catch (e) {
        sent = Promise.reject(e);
      }
      sent.then(done, () => done(undefined));
      return;
    }
    const timer = setTimeout(() => {
      this.sends.delete(msg.id);
      fail('the frame did not answer');
    }, SEND_TIMEOUT_MS);
    this.sends.set(msg.id, (ok, error) => {
      clearTimeout(timer);
      reply({ type: 'send-result', id: msg.id, ok, error });
    });
    if (!relay.post(post)) {
      this.sends.delete(msg.id);
      clearTimeout(timer);
      fail('the frame is gone');
    }
  }

  /** A relay answered a send (on whichever port of the tab it has now). */
  answered(result: PostResult): void {
    const cb = this.sends.get(result.id);
    this.sends.delete(result.id);
    cb?.(result.ok, result.error);
  }

  /** The frame that must appear as the sender, and what its relay posts; null when there is none. */
  private target(msg: Body<SendRequest>): { frameId: number; post: Body<BackgroundToRelay> } | null {
    // The panel sends data in the capture encoding (the port carries JSON only); the relay decodes it once.
    const { id, data, targetOrigin } = msg;
    if (msg.from === 'host') {
      const childUrl = msg.frameUrl ?? this.embedFrameUrl();
      return { frameId: 0, post: { type: 'post', id, target: 'child', childUrl, data, targetOrigin } };
    }
    const log = this.log();
    const frames = [...log.frames.values()].filter((f) => f.frameId !== 0);
    const tenant = log.state.tenantOrigin;
    const url = msg.frameUrl;
    const f =
      (url
        ? (frames.find((x) => x.url === url) ?? frames.find((x) => originOf(x.url) === originOf(url)))
        : undefined) ??
      (tenant ? frames.find((x) => originOf(x.url) === tenant) : undefined) ??
      // Never post from an arbitrary (possibly third-party) frame: only a lone child frame is a safe guess.
      (frames.length === 1 ? frames[0] : undefined);
    return f ? { frameId: f.frameId, post: { type: 'post', id, target: 'parent', data, targetOrigin } } : null;
  }

  /** The embed frame of the tenant origin, a child of the top frame (a host send's default target). */
  private embedFrameUrl(): string | undefined {
    const log = this.log();
    const tenant = log.state.tenantOrigin;
    if (!tenant) {
      return undefined;
    }
    return [...log.frames.values()].find((f) => f.parentFrameId === 0 && originOf(f.url) === tenant)?.url;
  }
}
