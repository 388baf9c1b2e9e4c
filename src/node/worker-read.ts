/**
 * Reading a tab's log out of the extension's service worker in pieces, so that a read of any size streams: the
 * worker picks what the caller asked for (a query, a projection, the capture file), serializes each item once and
 * keeps the text; the caller pulls pieces of about `chunk` characters of JSON, gzip-compressed and base64-encoded
 * when large (a log of 40,000 records is some 16 MB of JSON and about 0.5 MB so). Every piece is progress the
 * caller can see, and what was pulled before a deadline is whole records, usable on its own.
 *
 * `workerRead` runs IN THE WORKER: the test libraries send its source text (Playwright's and puppeteer's
 * `evaluate`), so it references nothing outside its own body (worker-read.test.ts checks it runs alone).
 */

/** Which records a read keeps (the test libraries' RecordQuery, plus what the matchers need). */
export interface LogQuery {
  type?: string | string[];
  kind?: 'post' | 'receive';
  direction?: 'event' | 'action';
  surface?: string;
  /** Frame navigation records too (left out by default). */
  navigation?: boolean;
  /** Other libraries' and extensions' messages too (left out by default). */
  foreign?: boolean;
  /** Only the records that carry issues (`scanned` still counts every record the query kept). */
  withIssues?: boolean;
  /** Delivered messages only: no post the browser dropped. */
  notDropped?: boolean;
}

/**
 * What to read: `records` (whole), `lines` (what a timeline line shows: no payload), `types` (the svc-embed types
 * in order, a post and its delivery once), `first` (the first matching record, or none) or `capture` (the capture
 * file: its messages are the items, the rest comes as `head`).
 */
export type ReadWhat = 'records' | 'lines' | 'types' | 'first' | 'capture';

export type WorkerReadArg =
  | { op: 'start'; tabId: number; what: ReadWhat; q?: LogQuery; limit?: number; chunk: number; createdBy?: string }
  | { op: 'piece'; id: string; from: number; chunk: number }
  | { op: 'end'; id: string };

/** A piece of items: a JSON array as text, or gzip-compressed and base64-encoded (`gz`). */
export interface Piece {
  text?: string;
  gz?: string;
  /** Items in this piece, and the index of the next one (= total when this was the last). */
  count: number;
  next: number;
}

export interface ReadStart {
  /** The stored read to pull pieces of, or null when `piece` holds everything. */
  id: string | null;
  /** Items the read holds (after `limit`). */
  total: number;
  /** Records the query kept before `withIssues` and `limit`. */
  scanned: number;
  /** `capture`: the file without its messages. */
  head?: unknown;
  piece: Piece | null;
}

/** The service worker's side of a read (see the module's comment: self-contained). */
export async function workerRead(arg: WorkerReadArg): Promise<ReadStart | Piece | null | boolean> {
  type Rec = {
    seq: number;
    kind: string;
    navigation?: boolean;
    verdict?: string;
    issues?: unknown[];
    pairedWith?: number;
    dropped?: boolean;
    data?: unknown;
    [k: string]: unknown;
  };
  type Stored = { texts: string[]; touched: number };
  const g = globalThis as unknown as {
    embedInspector: {
      records(tabId: number): Promise<Rec[]>;
      exportCapture(tabId: number, createdBy?: string): Promise<{ messages: unknown[] }>;
    };
    __embedInspectorReads?: Map<string, Stored>;
  };
  const reads = (g.__embedInspectorReads ??= new Map<string, Stored>());
  const field = (r: Rec, k: string): unknown => {
    const d = r.data as Record<string, unknown> | null;
    return d && typeof d === 'object' ? d[k] : undefined;
  };
  const typeOf = (r: Rec) => (typeof field(r, 'type') === 'string' ? (field(r, 'type') as string) : null);

  const pieceOf = async (texts: string[], from: number, chunk: number): Promise<Piece> => {
    let next = from;
    let size = 0;
    while (next < texts.length && (size < chunk || next === from)) {
      size += texts[next].length + 1;
      next++;
    }
    const text = `[${texts.slice(from, next).join(',')}]`;
    const count = next - from;
    if (text.length < 65_536 || typeof CompressionStream !== 'function') {
      return { text, count, next };
    }
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { gz: btoa(binary), count, next };
  };

  if (arg.op === 'end') {
    return reads.delete(arg.id);
  }
  if (arg.op === 'piece') {
    const stored = reads.get(arg.id);
    if (!stored) {
      return null; // (the worker stopped and started again: the caller reads again)
    }
    stored.touched = Date.now();
    const piece = await pieceOf(stored.texts, arg.from, arg.chunk);
    if (piece.next >= stored.texts.length) {
      reads.delete(arg.id);
    }
    return piece;
  }

  // A read left by a caller that went away is let go after two minutes.
  for (const [id, r] of reads) {
    if (Date.now() - r.touched > 120_000) {
      reads.delete(id);
    }
  }
  const q = arg.q ?? {};
  const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
  const types = list(q.type);
  const keep = (r: Rec): boolean => {
    if (r.navigation) {
      return !!q.navigation && q.type === undefined && q.kind === undefined;
    }
    if (!q.foreign && r.verdict === 'foreign') {
      return false;
    }
    if ((types && !types.includes(typeOf(r) ?? '')) || (q.kind && r.kind !== q.kind)) {
      return false;
    }
    if (q.notDropped && r.dropped) {
      return false;
    }
    return !(q.direction && field(r, 'direction') !== q.direction) && !(q.surface && field(r, 'surface') !== q.surface);
  };

  let items: unknown[];
  let head: unknown;
  let scanned: number;
  if (arg.what === 'capture') {
    const file = await g.embedInspector.exportCapture(arg.tabId, arg.createdBy);
    items = file.messages;
    head = { ...file, messages: [] };
    scanned = items.length;
  } else {
    const kept = (await g.embedInspector.records(arg.tabId)).filter(keep);
    scanned = kept.length;
    const chosen = q.withIssues ? kept.filter((r) => (r.issues?.length ?? 0) > 0) : kept;
    if (arg.what === 'types') {
      // The svc-embed types in order, a post and its delivery once.
      items = chosen
        .filter((r) => !r.navigation && !(r.kind === 'receive' && r.pairedWith !== undefined))
        .map(typeOf)
        .filter((t) => t !== null);
    } else if (arg.what === 'lines') {
      items = chosen.map((r) => {
        const { data: _data, ...line } = r;
        return { ...line, data: { type: field(r, 'type'), source: field(r, 'source') } };
      });
    } else {
      items = arg.what === 'first' ? chosen.slice(0, 1) : chosen;
    }
  }
  if (arg.limit !== undefined && items.length > arg.limit) {
    items = items.slice(0, arg.limit);
  }
  const texts = items.map((x) => JSON.stringify(x));
  const piece = await pieceOf(texts, 0, arg.chunk);
  if (piece.next >= texts.length) {
    return { id: null, total: texts.length, scanned, head, piece };
  }
  const id = `read-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  reads.set(id, { texts, touched: Date.now() });
  return { id, total: texts.length, scanned, head, piece };
}
