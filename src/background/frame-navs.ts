/**
 * When a subframe's navigation record is placed in the log. The log orders records of different clocks by time
 * (protocol/order.ts), and a navigation starts a new embed session (protocol/session.ts), so the record must come
 * before everything the new document did. The browser's commit event (`webNavigation.onCommitted`) is stamped when
 * the browser handles the commit, and by then the document may already have run its first script: an embed that
 * posts `ready` at once was seen placed before its own navigation, its session reset after it, and the host's next
 * action was flagged as sent before ready.
 *
 * So the record of a frame whose site is captured waits for that document's relay, at most NAV_WAIT_MS: the relay
 * says hello at `document_start`, before any script of the document, with the time in the frame's own clock, and
 * the record takes the earlier of the two times. Either may come first. A frame nobody captures has no relay: its
 * record is placed at once with the browser's time.
 */
import type { ReadySessions } from '../protocol/session.ts';
import type { RawRecord } from '../shared/messages.ts';

export interface FrameNav {
  frameId: number;
  url: string;
  time: number;
  /**
   * A top document shown again from the back/forward cache, with its embed sessions that were ready when the tab left
   * it (protocol/session.ts goes on with them).
   */
  restored?: ReadySessions;
}

/** The log's record of a navigation: a `receive` of the new address, marked as a navigation. */
export function navigationRecord(nav: FrameNav): RawRecord {
  let origin = 'null';
  try {
    origin = new URL(nav.url).origin;
  } catch {
    /* keep */
  }
  const data = nav.restored ? { url: nav.url, restored: true, sessions: nav.restored } : { url: nav.url };
  return { time: nav.time, kind: 'receive', frameUrl: nav.url, origin, data, navigation: true };
}

/** How long a navigation record waits for its document's relay, and how long a hello waits for its navigation. */
export const NAV_WAIT_MS = 1000;

export class FrameNavs {
  private readonly parked = new Map<number, { nav: FrameNav; timer: ReturnType<typeof setTimeout> }>();
  private readonly starts = new Map<number, { url: string; time: number; at: number }>();

  /** `late`: a parked record whose relay did not come in time, with the browser's time. */
  constructor(
    private readonly late: (nav: FrameNav) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The browser committed a document in a subframe; `relayComing`: its site is captured. Returns the records to place
   * now: none while this one waits for its relay; a record still waiting for the frame's previous document first.
   */
  committed(nav: FrameNav, relayComing: boolean): FrameNav[] {
    const out = this.release(nav.frameId);
    const s = this.starts.get(nav.frameId);
    this.starts.delete(nav.frameId);
    if (s && s.url === nav.url && this.clock() - s.at <= NAV_WAIT_MS) {
      out.push({ ...nav, time: Math.min(nav.time, s.time) });
    } else if (relayComing) {
      const timer = setTimeout(() => {
        for (const n of this.release(nav.frameId)) {
          this.late(n);
        }
      }, NAV_WAIT_MS);
      this.parked.set(nav.frameId, { nav, timer });
    } else {
      out.push(nav);
    }
    return out;
  }

  /**
   * A document's relay started (its first hello): `time` is its `document_start` in the frame's clock. Returns the
   * frame's waiting record, placed now at the earlier time, if it is this document's.
   */
  started(frameId: number, url: string, time: number): FrameNav[] {
    const p = this.parked.get(frameId);
    if (p && p.nav.url === url) {
      this.parked.delete(frameId);
      clearTimeout(p.timer);
      return [{ ...p.nav, time: Math.min(p.nav.time, time) }];
    }
    this.starts.set(frameId, { url, time, at: this.clock() });
    return [];
  }

  /** The frame's waiting record, with the browser's time (none: []). */
  release(frameId: number): FrameNav[] {
    const p = this.parked.get(frameId);
    if (!p) {
      return [];
    }
    this.parked.delete(frameId);
    clearTimeout(p.timer);
    return [p.nav];
  }

  /** Every waiting record, and nothing remembered (the session closes). */
  releaseAll(): FrameNav[] {
    const out = [...this.parked.keys()].flatMap((id) => this.release(id));
    this.starts.clear();
    return out;
  }
}
