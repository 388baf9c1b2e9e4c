/**
 * The relays of a tab's frames in the capture scope (one port per frame), and what goes to all of them: their
 * config, a scope change, the hand-overs asked for by `settle`. It is the only writer of that set; the tab's
 * session calls it on its chain.
 */
import type { BackgroundToRelay, CaptureConfig, CaptureMode, RelayReply, TabState } from '../shared/messages.ts';
import { browserApi } from '../shared/browser-api.ts';
import { accept, stamp, type Body } from '../shared/channel.ts';
import type { RelayPort } from './relay-port.ts';

/**
 * A frame asked to hand over (`settle`) has this long to answer, counted again from each batch it sends meanwhile
 * (a frame handing over a long burst is slow, not silent); one that sends nothing for this long is not waited for.
 */
export const SETTLE_TIMEOUT_MS = 3000;

/** A hand-over asked for and not answered yet. */
interface Asked {
  frameId: number;
  /** The port it was asked on; none when the frame was reached by tabs.sendMessage (it answers on a new port). */
  relay: RelayPort | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Stops the wait: true when the frame answered, false when it went silent, null when it has no relay to ask. */
  end: (answered: boolean | null) => void;
}

/** `relay` is the one asked in `a`: its port, or, asked by tabs.sendMessage, the port its frame opened since. */
const askedOf = (a: Asked, relay: RelayPort) => a.relay === relay || (!a.relay && a.frameId === relay.frameId);

/** A frame's config: the tab's pause, its site's mode (null: out of scope), the extension's size cap. */
export function configOf(
  state: Readonly<TabState>,
  mode: CaptureMode | null | undefined,
  maxBytes: number,
): CaptureConfig {
  // Out of scope (Firefox matches a captured host on every port): no hook and nothing recorded.
  return { receiveOnly: mode !== 'full', paused: state.paused || mode === null, maxBytes };
}

/** The ids of a tab's frames as the browser lists them now (none when it cannot: the tab is gone). */
export async function frameIdsOf(tabId: number): Promise<number[]> {
  try {
    const frames = await browserApi().webNavigation?.getAllFrames({ tabId });
    return (frames ?? []).map((f) => f.frameId);
  } catch {
    return [];
  }
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

/** Frames nested deeper than this are not followed to their page (none is, on a page a user brings). */
const MAX_DEPTH = 32;

/**
 * The page a relay's document is in, as the browser names it: the outermost document above it (itself for a top
 * frame, and for a page Chrome prerenders), followed through `webNavigation.getFrame`'s parent documents while
 * they exist. Undefined when the browser cannot tell (no documentId, as in Firefox before 153; a document gone
 * already): such a frame's records are never taken for another page's.
 */
export async function pageOf(
  tabId: number,
  frameId: number,
  documentId: string | undefined,
): Promise<string | undefined> {
  if (frameId === 0 || !documentId) {
    return documentId;
  }
  let doc = documentId;
  try {
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const f = await browserApi().webNavigation?.getFrame({ tabId, documentId: doc });
      if (f?.documentId !== doc) {
        return undefined; // (not that document: a browser that does not look frames up by document)
      }
      if (f.parentFrameId === -1) {
        return doc;
      }
      if (!f.parentDocumentId || f.parentFrameId === 0) {
        return f.parentDocumentId; // (frame 0 is the tab's top frame: its document is the page)
      }
      doc = f.parentDocumentId;
    }
  } catch {
    // (the document is gone)
  }
  return undefined;
}

/**
 * The document the tab's top frame shows now, and its address, as the browser says; undefined when it cannot tell
 * (the tab is gone, or it names no document: Firefox before 153).
 */
export async function topDocumentNow(tabId: number): Promise<{ documentId: string; url: string } | undefined> {
  try {
    const f = await browserApi().webNavigation?.getFrame({ tabId, frameId: 0 });
    return f?.documentId ? { documentId: f.documentId, url: f.url } : undefined;
  } catch {
    return undefined;
  }
}

export class TabRelays {
  private readonly relays = new Map<number, RelayPort>();
  /** Hand-overs asked for by `handOver`, waiting for their frame's answer, by request id. */
  private readonly asked = new Map<string, Asked>();

  /** The relays whose port is open. */
  all(): Iterable<RelayPort> {
    return this.relays.values();
  }

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

  /** How many frames have a relay. */
  get size(): number {
    return this.relays.size;
  }

  /** A relay's port closed (a newer relay of the same frame stays); a hand-over it was asked for is not waited for
   * (what it handed over came before the close). */
  detach(relay: RelayPort): void {
    if (this.relays.get(relay.frameId) === relay) {
      this.relays.delete(relay.frameId);
    }
    for (const a of [...this.asked.values()]) {
      if (askedOf(a, relay)) {
        a.end(true);
      }
    }
  }

  /** A batch came from `relay`: a hand-over it was asked for has SETTLE_TIMEOUT_MS again. */
  progress(relay: RelayPort): void {
    for (const a of this.asked.values()) {
      if (askedOf(a, relay)) {
        this.arm(a);
      }
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
   * (`flushed`, run by the caller: true), when its port closes (true), once it has sent nothing for SETTLE_TIMEOUT_MS
   * (false), or when it cannot be asked (null). The frames of `tab` with no open port (the worker stopped while the
   * page was quiet: a frame connects again only when it next sends) are reached by tabs.sendMessage; such a frame
   * hands over on the port it opens, and answers there.
   */
  handOver(tab?: { tabId: number; frameIds: readonly number[] }): Array<Promise<boolean | null>> {
    const ported = [...this.relays.values()].map((relay) => this.ask(relay.frameId, relay, (msg) => relay.post(msg)));
    if (!tab) {
      return ported;
    }
    const unported = tab.frameIds.filter((f) => !this.relays.has(f));
    return [...ported, ...unported.map((f) => this.ask(f, undefined, (msg) => reach(tab.tabId, f, msg)))];
  }

  private ask(
    frameId: number,
    relay: RelayPort | undefined,
    post: (msg: Body<BackgroundToRelay>) => boolean | Promise<boolean>,
  ): Promise<boolean | null> {
    return new Promise<boolean | null>((resolve) => {
      const id = `settle-${Math.random().toString(36).slice(2)}`;
      const a: Asked = {
        frameId,
        relay,
        timer: undefined,
        end: (answered) => {
          clearTimeout(a.timer);
          this.asked.delete(id);
          resolve(answered);
        },
      };
      this.asked.set(id, a);
      this.arm(a);
      const cannot = () => a.end(relay ? true : null);
      void Promise.resolve(post({ type: 'flush', id })).then((ok) => ok || cannot(), cannot);
    });
  }

  /**
   * A burst `from` received ended: every other frame that may hold posts (full mode) hands over now,
   * without an answer. A frame holds its posts for a quiet period that grows with what it posted (outbox.ts), longer
   * than its receivers take for a burst; this ends the wait when a receiver is done. A frame with nothing held sends
   * nothing back, and an asked frame's hand-over never asks again (relay.ts), so asks do not echo between frames.
   */
  askHandOver(from: RelayPort): void {
    for (const relay of this.relays.values()) {
      if (relay !== from && relay.mode === 'full') {
        relay.post({ type: 'hand-over' });
      }
    }
  }

  /**
   * A frame answered the hand-over `id`: its wait stops timing out now, and ends when the caller runs what this
   * returns (after the batches before the answer; undefined: not waited for any more).
   */
  flushed(id: string): (() => void) | undefined {
    const a = this.asked.get(id);
    if (!a) {
      return undefined;
    }
    this.asked.delete(id);
    clearTimeout(a.timer);
    return () => a.end(true);
  }

  private arm(a: Asked): void {
    clearTimeout(a.timer);
    a.timer = setTimeout(() => a.end(false), SETTLE_TIMEOUT_MS);
  }
}

/**
 * A frame asked by tabs.sendMessage: true when its relay replied that it hands over (its answer comes on its port),
 * false when it has none (out of scope, or no script of ours), or another version's.
 */
async function reach(tabId: number, frameId: number, msg: Body<BackgroundToRelay>): Promise<boolean> {
  try {
    const r = await browserApi().tabs.sendMessage(tabId, stamp<BackgroundToRelay>(msg), { frameId });
    return accept<RelayReply>('relay->background', r)?.type === 'flushing';
  } catch {
    return false;
  }
}
