/**
 * Pairing a post with its delivery, and telling which posts the browser dropped. Pure.
 *
 * Chrome offers no way to map a window (MAIN world) to a frame id, so a post and a delivery are matched
 * on what both sides observed: the same encoded data, the delivery's `event.origin` equal to the poster's
 * origin, frames related as the post's target says (parent/child/self, from the frame tree the background
 * keeps), and the delivery not earlier than the post. Either side may reach the background first.
 * A post whose target origin matches none of its possible target frames' origins was dropped by the
 * browser (it never dispatches such a message).
 */
import type { ClassifiedRecord } from '../shared/messages.ts';
import { originOf, resolveTargetOrigin } from '../protocol/origin.ts';
import { sameJson } from '../protocol/json-equal.ts';

export interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
  /** The browser said its origin is opaque ('null': relay-port.ts `opaque`). */
  opaque?: boolean;
}
export type FrameTree = Map<number, FrameInfo>;

/** Unpaired records held at least (the tab's log bound, if larger: a flood's posts wait for their deliveries). */
const MAX_WAITING = 20_000;
const MAX_AGE_MS = 60_000;
const SKEW_MS = 100;

const targetCache = new Map<string, string | null>();
function wantedOrigin(targetOrigin: string, posterOrigin: string): string | null {
  if (targetOrigin === '*') {
    return '*';
  }
  if (targetOrigin === '/') {
    return posterOrigin;
  }
  let o = targetCache.get(targetOrigin);
  if (o === undefined) {
    o = resolveTargetOrigin(targetOrigin, posterOrigin);
    if (targetCache.size > 2000) {
      targetCache.clear();
    }
    targetCache.set(targetOrigin, o);
  }
  return o;
}

/** Characters hashed in full; past this, a fixed sample of them (the key only picks candidates). */
const FULL_HASH_CHARS = 2048;

/**
 * 64-bit-ish FNV-1a of a string, as a short key: of every character up to FULL_HASH_CHARS, else of the
 * first and last 512 and about 1,024 evenly spaced ones, plus the length. A long message costs a bounded
 * hash; keys of different texts may then collide, so a pair is confirmed on the full text (`sameData`).
 */
function hashKey(s: string): string {
  let h1 = 0x811c9dc5,
    h2 = 0x01000193;
  const n = s.length;
  const sampled = n > FULL_HASH_CHARS;
  const step = sampled ? Math.max(1, Math.floor((n - 1024) / 1024)) : 1;
  const headEnd = sampled ? 512 : n;
  const tail = sampled ? n - 512 : n;
  // (three passes, no helper: a closure over h1/h2 made this 10× slower)
  for (let i = 0; i < headEnd; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  for (let i = headEnd; i < tail; i += step) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  for (let i = tail; i < n; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}:${n}`;
}

const dataText = (r: ClassifiedRecord): string => JSON.stringify(r.data) ?? 'undefined';

/** The frames a post could have gone to, or null when the tree cannot tell. */
function targetFrames(post: ClassifiedRecord, frames: FrameTree): FrameInfo[] | null {
  if (post.frameId === undefined) {
    return null;
  }
  const me = frames.get(post.frameId);
  switch (post.target) {
    case 'self':
      return me ? [me] : null;
    case 'parent': {
      const p = me && frames.get(me.parentFrameId);
      return p ? [p] : null;
    }
    case 'child': {
      const kids: FrameInfo[] = [];
      for (const f of frames.values()) {
        if (f.parentFrameId === post.frameId && f.frameId !== post.frameId) {
          kids.push(f);
        }
      }
      return kids.length ? kids : null;
    }
    default:
      return null;
  }
}

/** Did the browser drop this post (target origin matches no possible target frame)? undefined: can't tell. */
export function judgeDropped(post: ClassifiedRecord, frames: FrameTree): boolean | undefined {
  if (post.kind !== 'post' || post.error || post.targetOrigin === undefined) {
    return undefined;
  }
  const wanted = wantedOrigin(post.targetOrigin, post.origin);
  if (wanted === '*' || wanted === null) {
    return undefined;
  }
  const targets = targetFrames(post, frames);
  if (!targets) {
    return undefined;
  }
  const origins = targets.map((f) => frameOrigin(f, frames));
  if (origins.some((o) => o === null)) {
    return undefined; // about:blank, data: … origin unknown here
  }
  return !origins.includes(wanted);
}

/** A frame's origin; about:blank and about:srcdoc frames have their parent's (their creator's, as a rule). */
function frameOrigin(f: FrameInfo, frames: FrameTree): string | null {
  for (let i = 0; i < 32; i++) {
    if (f.opaque) {
      return 'null';
    }
    if (!/^about:(blank|srcdoc)(?:[?#]|$)/.test(f.url)) {
      return originOf(f.url);
    }
    const parent = frames.get(f.parentFrameId);
    if (!parent || parent === f) {
      return null;
    }
    f = parent;
  }
  return null;
}

function related(post: ClassifiedRecord, recv: ClassifiedRecord, frames: FrameTree): boolean {
  if (recv.origin !== post.origin) {
    return false;
  }
  if (recv.time < post.time - SKEW_MS) {
    return false;
  }
  const pf = post.frameId,
    rf = recv.frameId;
  const known = pf !== undefined && rf !== undefined;
  switch (post.target) {
    case 'self':
      return recv.from === 'self' && (!known || pf === rf);
    case 'parent': {
      if (recv.from !== undefined && recv.from !== 'child' && recv.from !== 'other') {
        return false;
      }
      const me = pf !== undefined ? frames.get(pf) : undefined;
      return !known || !me || me.parentFrameId === rf;
    }
    case 'child': {
      if (recv.from !== undefined && recv.from !== 'parent' && recv.from !== 'other') {
        return false;
      }
      const them = rf !== undefined ? frames.get(rf) : undefined;
      return !known || !them || them.parentFrameId === pf;
    }
    default:
      return recv.from !== 'self' && (!known || pf !== rf);
  }
}

/**
 * The candidate's data has this JSON text, `rec`'s (long texts share keys when their samples agree). Compared in
 * place first (`sameJson`: no second text of a long message); by their texts when that cannot tell.
 */
function sameData(text: string, rec: ClassifiedRecord, cand: ClassifiedRecord): boolean {
  if (text.length <= FULL_HASH_CHARS) {
    return true; // hashed in full: the key decides, as before
  }
  try {
    return sameJson(rec.data, cand.data) || dataText(cand) === text;
  } catch {
    return false;
  }
}

export class Pairer {
  private posts = new Map<string, ClassifiedRecord[]>();
  private receives = new Map<string, ClassifiedRecord[]>();
  private count = 0;

  /** `bound`: how many unpaired records may wait (the tab's log bound); never fewer than MAX_WAITING. */
  constructor(
    private frames: () => FrameTree,
    private bound: () => number = () => MAX_WAITING,
  ) {}

  private max(): number {
    return Math.max(MAX_WAITING, this.bound());
  }

  /**
   * Offer a new record; when it pairs, both records get `pairedWith` and the partner (already stored) is
   * returned so that the caller can persist and publish the change.
   */
  add(rec: ClassifiedRecord): ClassifiedRecord | null {
    if (rec.navigation || rec.pairedWith !== undefined) {
      return null;
    }
    if (rec.kind === 'post' && (rec.error || rec.dropped)) {
      return null;
    }
    let key: string;
    let text: string;
    // Short texts are their own key (the engine hashes strings natively); long ones a sampled hash.
    try {
      text = dataText(rec);
      key = text.length <= FULL_HASH_CHARS ? text : hashKey(text);
    } catch {
      return null;
    }
    const frames = this.frames();
    const other = rec.kind === 'post' ? this.receives : this.posts;
    const list = other.get(key);
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const cand = list[i];
        const ok = rec.kind === 'post' ? related(rec, cand, frames) : related(cand, rec, frames);
        if (!ok || !sameData(text, rec, cand)) {
          continue;
        }
        list.splice(i, 1);
        if (!list.length) {
          other.delete(key);
        }
        this.count--;
        rec.pairedWith = cand.seq;
        cand.pairedWith = rec.seq;
        return cand;
      }
    }
    const mine = rec.kind === 'post' ? this.posts : this.receives;
    const waiting = mine.get(key);
    if (waiting) {
      waiting.push(rec);
    } else {
      mine.set(key, [rec]);
    }
    if (++this.count > this.max()) {
      this.expire(rec.time);
    }
    return null;
  }

  /** Forget records too old to be paired (and the oldest ones past the bound). */
  expire(now: number): void {
    for (const map of [this.posts, this.receives]) {
      for (const [k, list] of map) {
        const kept = list.filter((r) => now - r.time < MAX_AGE_MS);
        this.count -= list.length - kept.length;
        if (kept.length) {
          map.set(k, kept);
        } else {
          map.delete(k);
        }
      }
    }
    // Then the oldest keys, in one pass per map (not one `keys().next()` per deletion: see protocol/maps.ts).
    for (const map of [this.posts, this.receives]) {
      for (const [k, list] of map) {
        if (this.count <= this.max() / 2) {
          break;
        }
        this.count -= list.length;
        map.delete(k);
      }
    }
  }

  clear(): void {
    this.posts.clear();
    this.receives.clear();
    this.count = 0;
  }
}
