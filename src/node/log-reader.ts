/**
 * How the test libraries read a tab's log from the extension's service worker, with no deadline of their own that
 * load could beat: `settle` waits as long as the frames make progress (the log grows), and a read streams the log
 * in pieces (worker-read.ts), each one progress. The only limit is the caller's: `until` (a Playwright test's own
 * time); a read cut by it returns what it read, whole records, and says what it did not.
 */
import { gunzipSync } from 'node:zlib';
import type { SettleResult } from '../shared/messages.ts';
import {
  workerRead,
  type LogQuery,
  type Piece,
  type ReadStart,
  type ReadWhat,
  type WorkerReadArg,
} from './worker-read.ts';

/** Evaluate a self-contained function in the extension's service worker (one argument, JSON-safe). */
export type Evaluate = <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => Promise<R>;

/**
 * How long settling waits, with no new record in the log, for frames that stay silent when asked to hand over (a
 * page in a long task). Frames that go on handing over records are waited for as long as they do.
 */
const SETTLE_PATIENCE_MS = 60_000;
/** Characters of JSON per piece of a read. */
const PIECE_CHARS = 4_000_000;

type Api = {
  settle(tabId: number, options?: { within?: number }): Promise<SettleResult>;
  count(tabId: number): Promise<number>;
};

export interface Settled {
  /** Frames asked to hand over, and those still silent when settling ended (busy: what they hold is not read). */
  frames: number;
  silent: number;
  /** Settling ended at the caller's limit (not by SETTLE_PATIENCE_MS without progress). */
  cut: boolean;
}

export interface ReadResult<T> {
  items: T[];
  /** Items the whole read holds (`items.length` when complete). */
  total: number;
  /** Records the query kept before `withIssues`/`limit`. */
  scanned: number;
  head?: unknown;
  complete: boolean;
  /** What was not read, and why (set when not complete). */
  missing?: string;
}

export interface ReadOptions {
  q?: LogQuery;
  limit?: number;
  createdBy?: string;
  /** Stop pulling pieces at this time (epoch ms), keeping what was read; default: the reader's `until`. */
  until?: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What settling left out, in words ('' when every frame handed over). */
export function settleNote(s: Settled): string {
  if (!s.silent) {
    return '';
  }
  return `${s.silent} of ${plural(s.frames, 'frame')} stayed busy and did not hand over what ${s.silent === 1 ? 'it' : 'they'} held${s.cut ? ' before the time ran out' : ` (nothing new for ${SETTLE_PATIENCE_MS / 1000} s)`}: records may be missing`;
}

export class LogReader {
  constructor(
    private readonly evaluate: Evaluate,
    private readonly tab: () => Promise<number>,
    /** When the caller's time ends (epoch ms). */
    readonly until: () => number = () => Number.POSITIVE_INFINITY,
    /** More time past `until` to read what a failure message lists (ms). */
    readonly grace = 0,
  ) {}

  tabId(): Promise<number> {
    return this.tab();
  }

  async call<A, R>(fn: (arg: A & { tabId: number }) => R | Promise<R>, arg: A): Promise<R> {
    const tabId = await this.tab();
    return this.evaluate(fn, { ...arg, tabId });
  }

  /**
   * Every frame hands over what it holds; resolves once that is in the log. A frame that stays silent (its page
   * busy in a long task, or still handing over a flood) is asked again while the log grows, and for up to
   * SETTLE_PATIENCE_MS after it last grew; never past `until` (the worker's own wait for the frames ends then too;
   * a frame still handing over a flood would otherwise hold the call for seconds past it).
   */
  async settle(until = this.until()): Promise<Settled> {
    let last = -1;
    let progressAt = Date.now();
    for (;;) {
      const within = Number.isFinite(until) ? Math.max(0, until - Date.now()) : undefined;
      const r = await this.call(
        ({ tabId, within }) =>
          (globalThis as unknown as { embedInspector: Api }).embedInspector.settle(tabId, { within }),
        { within },
      );
      // (an extension older than this library answers nothing: settled as it says)
      if (!r?.silent) {
        return { frames: r?.frames ?? 0, silent: 0, cut: false };
      }
      const n = await this.call(
        ({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.count(tabId),
        {},
      );
      if (n !== last) {
        last = n;
        progressAt = Date.now();
      }
      const now = Date.now();
      if (now >= until || now - progressAt >= SETTLE_PATIENCE_MS) {
        return { frames: r.frames, silent: r.silent, cut: now >= until };
      }
    }
  }

  /** Read `what` of the log (no settling: the caller settles first), streamed in pieces until `opts.until`. */
  async read<T>(what: ReadWhat, opts: ReadOptions = {}): Promise<ReadResult<T>> {
    const until = opts.until ?? this.until();
    for (;;) {
      const start = (await this.call(workerRead as (a: WorkerReadArg & { tabId: number }) => Promise<ReadStart>, {
        op: 'start' as const,
        what,
        q: opts.q,
        limit: opts.limit,
        chunk: PIECE_CHARS,
        createdBy: opts.createdBy,
      })) as ReadStart;
      const items: T[] = start.piece ? decode<T>(start.piece) : [];
      let next = start.piece?.next ?? 0;
      const result = (complete: boolean, missing?: string): ReadResult<T> => ({
        items,
        total: start.total,
        scanned: start.scanned,
        head: start.head,
        complete,
        missing,
      });
      while (start.id && next < start.total) {
        if (Date.now() >= until) {
          void this.evaluate(workerRead, { op: 'end', id: start.id }).catch(() => {});
          return result(
            false,
            `${plural(start.total - next, 'item')} of ${plural(start.total, 'item')} not read: the time ran out`,
          );
        }
        const piece = (await this.evaluate(workerRead, {
          op: 'piece',
          id: start.id,
          from: next,
          chunk: PIECE_CHARS,
        })) as Piece | null;
        if (!piece) {
          break; // the worker started again and lost the read: read again
        }
        items.push(...decode<T>(piece));
        next = piece.next;
      }
      if (!start.id || next >= start.total) {
        return result(true);
      }
      if (Date.now() >= until) {
        return result(false, 'the extension’s worker restarted during the read and the time ran out');
      }
    }
  }
}

function decode<T>(piece: Piece): T[] {
  const text =
    piece.gz !== undefined ? gunzipSync(Buffer.from(piece.gz, 'base64')).toString('utf8') : (piece.text ?? '[]');
  return JSON.parse(text) as T[];
}
