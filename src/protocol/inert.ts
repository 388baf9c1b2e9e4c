/**
 * Text we print is inert: a value from a capture (a type string, a URL, an error, a payload value) may hold terminal
 * escapes (`ESC ]0;…` retitles a terminal, `ESC [2J` clears it), a carriage return or a newline that writes a fake
 * line ("✓ 0 errors") over a real one in a CI log, the line separators U+2028/2029, or bidi controls that reorder what
 * a reader sees. `inert` writes each of them as a visible escape (`\u001b`, `\r`, `\n`, `\u202e`…), so that a field
 * stays on its line and shows what it holds. Pure.
 */
import { mapJson } from './json-map.ts';

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidi marks, embeddings, overrides, isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this module's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `s` with every control character written as a visible escape (a tab too: fields never hold one). */
export function inert(s: string): string {
  if (typeof s !== 'string') {
    return inert(String(s));
  }
  return s.replace(UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSON value with every string made inert (for text writers: what they print comes from it). */
export function inertValue<T>(v: T): T {
  return mapJson(v, inert) as T;
}
