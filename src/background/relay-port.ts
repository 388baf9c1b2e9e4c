/**
 * One relay's port (one frame and document of a tab) as the background sees it: the frame, the origin its hello
 * gave, and the capture mode of that origin in the scope (null: out of scope, nothing it sends is stored). The
 * object is the only writer of that state; the tab's session holds the relays in scope.
 */
import { MESSAGES_VERSION, type BackgroundToRelay, type CaptureConfig, type CaptureMode } from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';

export class RelayPort {
  private frameOrigin: string | null = null;
  /** undefined until the hello. */
  private captureMode: CaptureMode | null | undefined;
  private disconnected = false;

  constructor(
    readonly port: Runtime.Port,
    readonly tabId: number,
    readonly frameId: number,
  ) {}

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
  post(msg: BackgroundToRelay): boolean {
    try {
      this.port.postMessage(msg);
      return true;
    } catch {
      return false;
    }
  }

  config(config: CaptureConfig): void {
    this.post({ v: MESSAGES_VERSION, type: 'config', config });
  }

  /** Every batch up to `batch` is stored (or, out of scope, let go). A lost ack is harmless: the relay resends. */
  ack(batch: number): void {
    this.post({ v: MESSAGES_VERSION, type: 'ack', batch });
  }
}
