// The panel's bridge to Solid (src/panel/ui/bridge.ts): a read of the store subscribes to the parts it depends on in
// the same call (`select`), so that no component reads the store without the signal that says it changed; a
// statement that only reads a signal (`sig.state();`) before a read of the store is the pattern it replaces, and one
// forgotten is a stale UI with no error.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectorOf, type PanelSignals } from '../../src/panel/ui/bridge.ts';
import type { PanelStore } from '../../src/panel/ui/panel-store.ts';
import { ROOT } from '../helpers/paths.ts';

/** Signals that write down when they are read, and a store that writes down when it is. */
function stubs() {
  const reads: string[] = [];
  const names = ['view', 'appended', 'state', 'selection', 'filters', 'status', 'capture'] as const;
  const sig = Object.fromEntries(
    names.map((n) => [
      n,
      () => {
        reads.push(n);
        return 0;
      },
    ]),
  ) as unknown as PanelSignals;
  const store = { count: 3 } as unknown as PanelStore;
  return { reads, sig, store };
}

describe('select', () => {
  it('reads the signal of the part named, then the store, on every call', () => {
    const { reads, sig, store } = stubs();
    const count = selectorOf(store, sig)('state', (s) => {
      reads.push('store');
      return (s as unknown as { count: number }).count;
    });
    expect(reads).toEqual([]); // nothing is read before the accessor is
    expect(count()).toBe(3);
    expect(count()).toBe(3);
    expect(reads).toEqual(['state', 'store', 'state', 'store']);
  });

  it('reads every part named, in order, before the store, and no other', () => {
    const { reads, sig, store } = stubs();
    const got = selectorOf(store, sig)(['capture', 'status'], (s) => {
      reads.push('store');
      return s;
    });
    expect(got()).toBe(store);
    expect(reads).toEqual(['capture', 'status', 'store']);
  });
});

/** Files that still read a signal by hand (none: an entry here must name a file that still does). */
const PENDING = new Set<string>();
/** A statement that only reads a signal of the bridge: `sig.state();`, `core.sig.view();`. */
const HAND_READ = /^\s*(?:[\w.]+\.)?sig\.\w+\(\);?\s*$/gm;

function panelFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? panelFiles(p) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the panel reads its store through select', () => {
  it('has no hand-written signal read before a store read', () => {
    const panel = join(ROOT, 'src/panel');
    const found: string[] = [];
    for (const abs of panelFiles(panel)) {
      const file = relative(panel, abs);
      const text = readFileSync(abs, 'utf8');
      for (const m of text.matchAll(HAND_READ)) {
        if (!PENDING.has(file)) {
          const line = text.slice(0, m.index).split('\n').length;
          found.push(`${file}:${line}: ${m[0].trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('finds a hand read where there is one, and holds no exception that no longer applies', () => {
    const sample = 'const x = () => {\n    sig.state();\n    core.sig.view();\n    return sig.view() + 1;\n};';
    expect([...sample.matchAll(HAND_READ)].map((m) => m[0].trim())).toEqual(['sig.state();', 'core.sig.view();']);
    for (const file of PENDING) {
      expect([...readFileSync(join(ROOT, 'src/panel', file), 'utf8').matchAll(HAND_READ)], file).not.toHaveLength(0);
    }
  });
});
