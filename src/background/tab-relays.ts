/**
 * The relays of a tab's frames in the capture scope (one port per frame), and what goes to all of them: their
 * config, a scope change, the hand-overs asked for by `settle`. It is the only writer of that set; the tab's
 * session calls it on its chain.
 */
import type { CaptureConfig, CaptureMode, TabState } from '../shared/messages.ts';
import { browserApi } from '../shared/browser-api.ts';
import type { RelayPort } from './relay-port.ts';

/** A frame asked to hand over (`settle`) has this long to answer; one that does not is not waited for. */
export const SETTLE_TIMEOUT_MS = 3000;

/** A frame's config: the tab's pause, its site's mode (null: out of scope), the extension's size cap. */
export function configOf(
  state: Readonly<TabState>,
  mode: CaptureMode | null | undefined,
  maxBytes: number,
): CaptureConfig {
  // Out of scope (Firefox matches a captured host on every port): no hook and nothing recorded.
  return { receiveOnly: mode !== 'full', paused: state.paused || mode === null, maxBytes };
}

/** A subframe's parent as the browser says it now; `known` when the browser cannot tell (the frame is gone). */
export async function parentFrameOf(tabId: number, frameId: number, known: number): Promise<number> {
  try {
    const f = await browserApi().webNavigation?.getFrame({ tabId, frameId });
    return f ? f.parentFrameId : known;
  } catch {
    return known;
  }
}

export class TabRelays {
  private readonly relays = new Map<number, RelayPort>();
  /** Hand-overs asked for by `handOver`, waiting for their frame's answer: request id → callback. */
  private readonly flushes = new Map<string, () => void>();

  /** The relay of `frameId`, if its port is open. */
  get(frameId: number): RelayPort | undefined {
    return this.relays.get(frameId);
  }

  /** A relay in scope said hello; a port closed meanwhile is not kept (it would take sends the fallback can deliver). */
  attach(relay: RelayPort): void {
    if (!relay.gone) {
      this.relays.set(relay.frameId, relay);
    }
  }

  /** A relay's port closed (a newer relay of the same frame stays). */
  detach(relay: RelayPort): void {
    if (this.relays.get(relay.frameId) === relay) {
      this.relays.delete(relay.frameId);
    }
  }

  /** Every frame gets its config: the tab's pause, its mode, the size cap. */
  pushConfig(state: Readonly<TabState>, maxBytes: number): void {
    for (const relay of this.relays.values()) {
      relay.config(configOf(state, relay.mode, maxBytes));
    }
  }

  /** The scope changed: each frame gets its site's mode; one whose site left the scope is paused and let go. */
  rescope(frameMode: (origin: string | null) => CaptureMode | null, state: Readonly<TabState>, maxBytes: number): void {
    for (const [frameId, relay] of this.relays) {
      const mode = frameMode(relay.origin);
      relay.rescope(mode);
      if (mode === null) {
        this.relays.delete(frameId);
        relay.config(configOf(state, null, maxBytes));
      }
    }
  }

  /**
   * Every frame is asked to hand over what it holds now; one promise per frame, resolved when it answers
   * (`flushed`, run by the caller), or when it cannot be asked, or after SETTLE_TIMEOUT_MS.
   */
  handOver(): Array<Promise<void>> {
    return [...this.relays.values()].map(
      (relay) =>
        new Promise<void>((resolve) => {
          const id = `settle-${Math.random().toString(36).slice(2)}`;
          const timer = setTimeout(() => {
            this.flushes.delete(id);
            resolve();
          }, SETTLE_TIMEOUT_MS);
          this.flushes.set(id, () => {
            clearTimeout(timer);
            resolve();
          });
          if (!relay.post({ type: 'flush', id })) {
            this.flushes.get(id)?.();
            this.flushes.delete(id);
          }
        }),
    );
  }

  /** A frame answered the hand-over `id`: what resolves its wait (undefined: not waited for any more). */
  flushed(id: string): (() => void) | undefined {
    const done = this.flushes.get(id);
    this.flushes.delete(id);
    return done;
  }
}
