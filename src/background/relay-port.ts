/**
 * One relay's port (one frame and document of a tab) as the background sees it: the frame, the origin its hello
 * gave, and the capture mode of that origin in the scope (null: out of scope, nothing it sends is stored). The
 * object is the only writer of that state; the tab's session holds the relays in scope.
 */
import type { BackgroundToRelay, CaptureConfig, CaptureMode, RelayToBackground } from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { backgroundRelayChannel, type Body, type Channel } from '../shared/channel.ts';

export class RelayPort {
  private frameOrigin: string | null = null;
  /**
   * The page the relay's document is in (tab-relays.ts `pageOf`), once its hello is heard; undefined when the browser
   * cannot tell. What it sends once the tab's log has left that page is not the new page's (tab-session.ts `accept`).
   */
  page: string | undefined;
  /**
   * The browser said the frame's origin is opaque ('null': a sandboxed frame without allow-same-origin, a data:
   * URL), whatever its URL says: a post to it with a target origin other than '*' is dropped.
   */
  opaque = false;
  /** When its hello was made (the relay's clock, ms since the epoch); undefined before. */
  since: number | undefined;
  /** Its frame's address at its hello (the relay's word); undefined before. */
  frameUrl: string | undefined;
  /** undefined until the hello. */
  private captureMode: CaptureMode | null | undefined;
  private disconnected = false;
  private onClosedHere: (() => void) | null = null;
  /** The port as the relay hop's channel (stamps what is sent, checks what comes). */
  readonly channel: Channel<BackgroundToRelay, RelayToBackground>;

  constructor(
    readonly port: Runtime.Port,
    readonly tabId: number,
    readonly frameId: number,
    onDrop?: (why: string, raw: unknown) => void,
  ) {
    this.channel = backgroundRelayChannel(port, onDrop);
  }

  get origin(): string | null {
    return this.frameOrigin;
  }
  get mode(): CaptureMode | null | undefined {
    return this.captureMode;
  }
  /** Out of the capture scope: told to pause, its batches acknowledged unstored. */
  get outOfScope(): boolean {
    return this.captureMode === null;
  }

  /** The port closed (the frame went away, or the worker stopped): the relay is never attached again. */
  get gone(): boolean {
    return this.disconnected;
  }
  closed(): void {
    this.disconnected = true;
  }
  /** What closing the port from this side does besides (its onDisconnect is heard only by the other side). */
  whenClosedHere(fn: () => void): void {
    this.onClosedHere = fn;
  }
  /**
   * A batch of this relay could not be stored: the port is closed, so that the relay connects again and sends every
   * batch not acknowledged (an acknowledgement counts for every batch before it: that of a later batch, stored, would
   * let the relay drop the failed one).
   */
  resend(): void {
    if (this.disconnected) {
      return;
    }
    this.disconnected = true;
    try {
      this.port.disconnect();
    } catch {
      /* already */
    }
    this.onClosedHere?.();
  }

  /** The relay said hello from a frame of `origin`, captured in `mode` (null: out of scope). */
  hello(origin: string | null, mode: CaptureMode | null): void {
    this.frameOrigin = origin;
    this.captureMode = mode;
  }

  /** The scope changed: the frame's origin is now captured in `mode` (null: out of scope from now on). */
  rescope(mode: CaptureMode | null): void {
    this.captureMode = mode;
  }

  /** Post a message; false when the port is gone. */
  post(body: Body<BackgroundToRelay>): boolean {
    try {
      this.channel.send(body);
      return true;
    } catch {
      return false;
    }
  }

  config(config: CaptureConfig): void {
    this.post({ type: 'config', config });
  }

  /** Every batch up to `batch` is stored (or, out of scope, let go). A lost ack is harmless: the relay resends. */
  ack(batch: number): void {
    this.post({ type: 'ack', batch });
  }
}
