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
/** A call that did not answer in time (LogReader.answer). */
const LATE = Symbol('late');

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
  /** The worker did not answer before the caller's limit (busy: what the frames hold is not known). */
  unanswered?: boolean;
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
  /** No answer is awaited past this time (epoch ms); default: the later of `until` and the reader's end. */
  hard?: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What settling left out, in words ('' when every frame handed over). */
export function settleNote(s: Settled): string {
  if (s.unanswered) {
    return 'the extension’s worker did not answer before the time ran out: records may be missing';
  }
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

  /** The last moment a call is awaited for the caller (its `until` and the grace): no answer by then is late. */
  end(): number {
    return this.until() + this.grace;
  }

  async call<A, R>(fn: (arg: A & { tabId: number }) => R | Promise<R>, arg: A): Promise<R> {
    const tabId = await this.tab();
    return this.evaluate(fn, { ...arg, tabId });
  }

  /**
   * `call`, or LATE once `hard` (epoch ms) passes without an answer: a worker busy ingesting a flood answers late,
   * and the caller's time is not held past its end by one call (the call goes on in the worker; its answer is
   * dropped).
   */
  private answer<R>(call: () => Promise<R>, hard: number): Promise<R | typeof LATE> {
    const p = call();
    if (!Number.isFinite(hard)) {
      return p;
    }
    p.catch(() => {}); // (an answer after LATE, or its error, is nobody's)
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), Math.max(0, hard - Date.now()));
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  /**
   * Every frame hands over what it holds; resolves once that is in the log. A frame that stays silent (its page
   * busy in a long task, or still handing over a flood) is asked again while the log grows, and for up to
   * SETTLE_PATIENCE_MS after it last grew; never past `until` (the worker's own wait for the frames ends then too;
   * a frame still handing over a flood would otherwise hold the call for seconds past it). No call is awaited past
   * `hard` (by default the later of `until` and the reader's end): then `unanswered`.
   */
  async settle(until = this.until(), hard = Math.max(until, this.end())): Promise<Settled> {
    let last = -1;
    let progressAt = Date.now();
    let r: SettleResult | undefined;
    const unanswered = (): Settled => ({ frames: r?.frames ?? 0, silent: r?.silent ?? 0, cut: true, unanswered: true });
    for (;;) {
      const within = Number.isFinite(until) ? Math.max(0, until - Date.now()) : undefined;
      const answer = await this.answer(
        () =>
          this.call(
            ({ tabId, within }) =>
              (globalThis as unknown as { embedInspector: Api }).embedInspector.settle(tabId, { within }),
            { within },
          ),
        hard,
      );
      if (answer === LATE) {
        return unanswered();
      }
      r = answer;
      // (an extension older than this library answers nothing: settled as it says)
      if (!r?.silent) {
        return { frames: r?.frames ?? 0, silent: 0, cut: false };
      }
      const n = await this.answer(
        () =>
          this.call(({ tabId }) => (globalThis as unknown as { embedInspector: Api }).embedInspector.count(tabId), {}),
        hard,
      );
      if (n === LATE) {
        return unanswered();
      }
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
    const hard = opts.hard ?? Math.max(until, this.end());
    const late = (items: T[] = [], start?: ReadStart, next = 0): ReadResult<T> => ({
      items,
      total: start?.total ?? items.length,
      scanned: start?.scanned ?? items.length,
      head: start?.head,
      complete: false,
      missing: start
        ? `${plural(start.total - next, 'item')} of ${plural(start.total, 'item')} not read: the extension’s worker did not answer before the time ran out`
        : 'not read: the extension’s worker did not answer before the time ran out',
    });
    for (;;) {
      const start = await this.answer(
        () =>
          this.call(workerRead as (a: WorkerReadArg & { tabId: number }) => Promise<ReadStart>, {
            op: 'start' as const,
            what,
            q: opts.q,
            limit: opts.limit,
            chunk: PIECE_CHARS,
            createdBy: opts.createdBy,
          }) as Promise<ReadStart>,
        hard,
      );
      if (start === LATE) {
        return late();
      }
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
      const id = start.id;
      const end = (readId: string) => void this.evaluate(workerRead, { op: 'end', id: readId }).catch(() => {});
      while (id && next < start.total) {
        if (Date.now() >= until) {
          end(id);
          return result(
            false,
            `${plural(start.total - next, 'item')} of ${plural(start.total, 'item')} not read: the time ran out`,
          );
        }
        const from = next;
        const piece = await this.answer(
          () => this.evaluate(workerRead, { op: 'piece', id, from, chunk: PIECE_CHARS }) as Promise<Piece | null>,
          hard,
        );
        if (piece === LATE) {
          end(id);
          return late(items, start, next);
        }
        if (!piece) {
          break; // the worker started again and lost the read: read again
        }
        items.push(...decode<T>(piece));
        next = piece.next;
      }
      if (!id || next >= start.total) {
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
