/**
 * A relay's batch as the log takes it: what a captured frame may say, and what only the extension says.
 *
 * A batch comes from one frame's relay (its port: the browser says which tab, frame and origin) and holds the relay's
 * entries (`json`): records it wrote itself from what it saw in its own world (deliveries, the posts it injected), and
 * entries that stand for a line of text the page's world wrote (`lines`: a post the MAIN-world hook recorded, or, in
 * Firefox's full mode, a delivery's data its reader wrote). Any frame of a page may be hostile, and its own world can
 * be made to say anything of its own posts, so:
 * - every record is rebuilt here, field by field, each of its type; a field the kind does not have is left out
 *   (`navigation`, `seq`, `pairedWith`, `dropped`, `verdict`…: the log's and the browser's to say);
 * - where a record was made is the extension's word: its frame is the port's, its origin (a post's) the frame's,
 *   and a URL on another origin than the frame's is refused;
 * - only the relay injects: a line from the page's world is never `injected`;
 * - each line is read on its own, and an entry or line that is not what it must be drops itself only.
 */
import type { RawRecord, WindowRelation } from '../shared/messages.ts';
import { originOf } from '../protocol/origin.ts';

/** A raw record with the frame it came from (the port's). */
export type FrameRecord = RawRecord & { frameId?: number };

/** Records the background wrote itself (navigations), as stored: read as they are, marked with their frame. */
export function readOwnBatch(frameId: number, json: string): FrameRecord[] {
  const raws = JSON.parse(json) as FrameRecord[];
  for (const r of raws) {
    r.frameId = frameId;
  }
  return raws;
}

/** The frame a batch came from, as the browser said it (the relay's port). */
export interface BatchFrame {
  frameId: number;
  /** The frame's origin (the port sender's), null when unknown. */
  origin: string | null;
}

const RELATIONS: ReadonlySet<string> = new Set<WindowRelation>(['parent', 'child', 'self', 'opener', 'other']);
/** Longest string field a record may carry (URLs, origins, errors); the data has its own cap. */
const MAX_TEXT = 64 * 1024;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const has = (o: Obj, k: string): boolean => Object.hasOwn(o, k);

/** Thrown (and caught) for an entry that is not what it must be. */
class Refused extends Error {}
const need = (ok: boolean, what: string): void => {
  if (!ok) {
    throw new Refused(what);
  }
};

/**
 * The records of a relay's batch, each checked and rebuilt (above); `dropped` counts the entries left out. Throws
 * only when `json` is not a JSON array (the relay's own text: never, unless it is not our relay).
 */
export function readBatch(
  frame: BatchFrame,
  json: string,
  lines: readonly string[] = [],
): { records: FrameRecord[]; dropped: number } {
  const entries: unknown = JSON.parse(json);
  if (!Array.isArray(entries)) {
    throw new Error('a batch is not a JSON array');
  }
  const records: FrameRecord[] = [];
  let dropped = 0;
  let next = 0;
  for (const e of entries) {
    try {
      need(isObj(e), 'an entry is not an object');
      const entry = e as Obj;
      const line = entry.line === true ? lines[next++] : undefined;
      need(entry.line === undefined || typeof line === 'string', 'a line is missing');
      records.push(recordOf(frame, entry, line));
    } catch (err) {
      if (!(err instanceof Refused) && !(err instanceof SyntaxError)) {
        throw err;
      }
      dropped++;
    }
  }
  return { records, dropped: dropped + Math.max(0, lines.length - next) };
}

/** One entry's record (with its line from the page's world, if it stands for one). */
function recordOf(frame: BatchFrame, e: Obj, line: string | undefined): FrameRecord {
  const frameUrl = e.frameUrl;
  need(text(frameUrl), 'frameUrl');
  const at = originOf(frameUrl as string);
  need(!frame.origin || frame.origin === 'null' || !at || at === frame.origin, 'a URL on another origin');
  if (e.kind === 'post' && line !== undefined) {
    const facts: unknown = JSON.parse(line);
    need(isObj(facts), 'a post line is not an object');
    return post(frame, frameUrl as string, facts as Obj, false);
  }
  if (e.kind === 'post') {
    need(e.injected === true, 'a post the relay wrote is an injected one');
    return post(frame, frameUrl as string, e, true);
  }
  need(e.kind === 'receive', 'kind');
  need(line !== undefined || has(e, 'data'), 'data');
  return receive(frame, frameUrl as string, e, line === undefined ? e.data : JSON.parse(line));
}

/** The fields every record has. */
function base(frame: BatchFrame, kind: RawRecord['kind'], frameUrl: string, time: unknown, origin: unknown) {
  need(typeof time === 'number' && Number.isFinite(time) && time > 0, 'time');
  need(text(origin), 'origin');
  return { time: time as number, kind, frameUrl, origin: origin as string, frameId: frame.frameId };
}

function post(frame: BatchFrame, frameUrl: string, f: Obj, injected: boolean): FrameRecord {
  need(has(f, 'data'), 'data');
  const origin = frame.origin && frame.origin !== 'null' ? frame.origin : (originOf(frameUrl) ?? 'null');
  const r: FrameRecord = { ...base(frame, 'post', frameUrl, f.time, origin), data: f.data };
  if (f.targetOrigin !== undefined) {
    need(text(f.targetOrigin), 'targetOrigin');
    r.targetOrigin = f.targetOrigin as string;
  }
  optional(r, f);
  if (f.target !== undefined) {
    need(typeof f.target === 'string' && RELATIONS.has(f.target), 'target');
    r.target = f.target as WindowRelation;
  }
  if (f.targetUrl !== undefined) {
    need(text(f.targetUrl), 'targetUrl');
    r.targetUrl = f.targetUrl as string;
  }
  if (f.error !== undefined) {
    need(text(f.error), 'error');
    r.error = f.error as string;
  }
  if (injected) {
    r.injected = true;
  }
  return r;
}

function receive(frame: BatchFrame, frameUrl: string, e: Obj, data: unknown): FrameRecord {
  const r: FrameRecord = { ...base(frame, 'receive', frameUrl, e.time, e.origin), data };
  optional(r, e);
  if (e.from !== undefined) {
    need(typeof e.from === 'string' && RELATIONS.has(e.from), 'from');
    r.from = e.from as WindowRelation;
  }
  return r;
}

/** `originalSize` and `transfer`, where given: whole numbers. */
function optional(r: FrameRecord, f: Obj): void {
  if (f.originalSize !== undefined) {
    need(count(f.originalSize), 'originalSize');
    r.originalSize = f.originalSize as number;
  }
  if (f.transfer !== undefined) {
    need(count(f.transfer), 'transfer');
    r.transfer = f.transfer as number;
  }
}
