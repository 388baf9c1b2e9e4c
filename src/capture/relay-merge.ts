/**
 * One frame's order, rebuilt in the relay from its two recorders: the deliveries it recorded itself
 * (deliveries.ts), numbered from 0 in the order the frame saw them, and the posts the MAIN world hands over
 * (page.ts), each with the number of deliveries that frame had seen when the page posted (`after`). A post made
 * in a message handler therefore follows that message's delivery, and one made before a delivery precedes it.
 *
 * page -> relay detail (CHANNEL_PAGE_RECORDS): lines `<after>\t<record JSON>`, joined by `\n`. Record JSON never
 * holds a raw newline or tab (JSON.stringify escapes control characters, and writer.ts adds none), so the
 * relay splits without parsing.
 */

/** Bound of one page -> relay detail, UTF-16 units. */
export const MAX_DETAIL_CHARS = 1_000_000;

export interface PagePost {
  /** Deliveries the frame had seen when the page posted. */
  after: number;
  json: string;
}

export const postLine = (after: number, json: string): string => after + '\t' + json;

/** `parts` joined by `sep` into strings of at most about `max` characters (a longer part goes alone), in order. */
export function joinInChunks(parts: readonly string[], sep: string, max: number, emit: (joined: string) => void): void {
  let from = 0;
  let chars = 0;
  for (let i = 0; i < parts.length; i++) {
    if (chars + parts[i].length > max && i > from) {
      emit(parts.slice(from, i).join(sep));
      from = i;
      chars = 0;
    }
    chars += parts[i].length + sep.length;
  }
  if (from < parts.length) {
    emit((from ? parts.slice(from) : parts).join(sep));
  }
}

/** The posts of one detail; a line that does not parse is dropped (never thrown). */
export function parsePosts(detail: string, into: PagePost[]): void {
  const lines = detail.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const tab = line.indexOf('\t');
    const after = tab > 0 ? Number(line.slice(0, tab)) : Number.NaN;
    if (after >= 0 && tab + 1 < line.length) {
      into.push({ after, json: line.slice(tab + 1) });
    }
  }
}

/**
 * The frame's records in its order: `deliveries` (ascending `i`, their number) and `posts` (in the order the page
 * made them), each post before the first delivery it had not seen. `json` writes a delivery's record ('' skips it).
 */
export function mergeInOrder<D extends { i: number }>(
  deliveries: readonly D[],
  posts: readonly PagePost[],
  json: (d: D) => string,
): string[] {
  const out: string[] = [];
  let p = 0;
  for (let k = 0; k < deliveries.length; k++) {
    const d = deliveries[k];
    while (p < posts.length && posts[p].after <= d.i) {
      out.push(posts[p++].json);
    }
    const j = json(d);
    if (j) {
      out.push(j);
    }
  }
  while (p < posts.length) {
    out.push(posts[p++].json);
  }
  return out;
}
