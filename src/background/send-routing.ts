/**
 * Sends from a panel or the automation API: a post as the host page (to an embed frame) or as the embed (to its
 * parent), from the frame that must appear as the sender, over its relay's port (`post`, answered by
 * `post-result`), or, when that port closed during a quiet period, by `tabs.sendMessage`. This part holds the
 * sends waiting for their frame's answer and is their only writer.
 */
import type {
  BackgroundToPanel,
  BackgroundToRelay,
  PanelToBackground,
  RelayReply,
  RelayToBackground,
} from '../shared/messages.ts';
import { browserApi } from '../shared/browser-api.ts';
import { accept, stamp, type Body } from '../shared/channel.ts';
import { originOf } from '../protocol/origin.ts';
import { isEmbedAddress } from '../protocol/address.ts';
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
      fail(
        this.log().state.tenantOrigin
          ? 'no embed frame on the tenant origin in this tab'
          : 'the tenant origin is not known yet (no embed frame has spoken): set it by hand to send',
      );
      return;
    }
    const { frameId, post } = to;
    const relay = this.relayOf(frameId);
    if (!relay) {
      // The frame's port closed while the page was quiet (the service worker stopped): reach its relay directly;
      // it posts, replies with the result, and its record of the post reconnects the port.
      const done = (r: unknown) => {
        const answer = r === undefined ? null : accept<RelayReply>('relay->background', r, this.onDrop);
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
    const embeds = this.embedFrames();
    const url = msg.frameUrl;
    const named = url
      ? (embeds.find((x) => x.url === url) ?? embeds.find((x) => originOf(x.url) === originOf(url)))
      : undefined;
    if (msg.from === 'host') {
      const child = url ? named : embeds.find((f) => f.parentFrameId === 0);
      return child
        ? { frameId: 0, post: { type: 'post', id, target: 'child', childUrl: child.url, data, targetOrigin } }
        : null;
    }
    const f = url ? named : embeds[0];
    return f ? { frameId: f.frameId, post: { type: 'post', id, target: 'parent', data, targetOrigin } } : null;
  }

  /**
   * The frames a send may go to or come from: the embed frames on the tenant origin (at an embed address, the
   * browser's word: protocol/tenant.ts), never a frame a page message named; with a tenant origin set by hand, any
   * frame on it. None while the tenant origin is not known.
   */
  private embedFrames(): Array<{ frameId: number; parentFrameId: number; url: string }> {
    const log = this.log();
    const tenant = log.state.tenantOrigin;
    if (!tenant) {
      return [];
    }
    const manual = log.state.tenantOriginSource === 'manual';
    return [...log.frames.values()].filter(
      (f) => f.frameId !== 0 && originOf(f.url) === tenant && (manual || isEmbedAddress(f.url)),
    );
  }
}
