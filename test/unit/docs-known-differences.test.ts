// What full mode may change for a page (test/transparency/known-differences.ts, which the transparency suites
// allow and pin) is said in docs/capture-modes.md, each difference by a sentence of its list, word for word.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_DIFFERENCES, KNOWN_REORDERS } from '../transparency/known-differences.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const doc = flat(readFileSync(`${ROOT}docs/capture-modes.md`, 'utf8'));
const section = doc.slice(doc.indexOf('## What full mode cannot keep'));

describe('the allowed differences of full mode', () => {
  it('are each named once and pin what differs', () => {
    const names = KNOWN_DIFFERENCES.map((k) => `${k.browser ?? 'chromium'} ${k.suite} ${k.name}`);
    expect(new Set(names).size).toBe(names.length);
    for (const k of KNOWN_DIFFERENCES) {
      expect(['windows', 'libraries'], k.name).toContain(k.suite);
      expect(k.readme.trim().length, k.name).toBeGreaterThan(0);
      expect(k.without.length + k.full.length, `${k.name} pins what differs`).toBeGreaterThan(0);
    }
  });

  it('are each a sentence of docs/capture-modes.md, under "What full mode cannot keep"', () => {
    expect(section.length).toBeGreaterThan(0);
    for (const k of [...KNOWN_DIFFERENCES, ...KNOWN_REORDERS]) {
      expect(section.includes(flat(k.readme)), `docs/capture-modes.md does not contain: ${k.readme}`).toBe(true);
    }
  });
});
