import { describe, expect, it, vi } from 'vitest';
import type { RawRecord } from '../shared/messages.ts';
import { checkOptions } from './input-checks.ts';
import { applyOptions } from './tab-options.ts';
import { TabLog, newState } from './tablog.ts';

const TAB = 7;
const post = (n: number): RawRecord & { frameId: number } => ({
  time: 1000 + n,
  kind: 'post',
  frameUrl: 'https://host.example/',
  origin: 'https://host.example',
  targetOrigin: 'https://acme.example.com',
  target: 'child',
  data: { source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: n },
  frameId: 0,
});

/** A log holding `held` records, and the extension-wide settings as the registry would receive them. */
function setup(held = 0) {
  const log = new TabLog(newState(TAB));
  log.add(Array.from({ length: held }, (_, i) => post(i)));
  const settings = { setMaxBytes: vi.fn(async () => {}), setReadyTimeout: vi.fn(async () => {}) };
  return { log, settings };
}

describe('tab options', () => {
  it.each([
    [{ preserveLog: true }, { preserveLog: true, paused: false, maxRecords: 50_000 }],
    [{ paused: true }, { preserveLog: false, paused: true, maxRecords: 50_000 }],
    [{ maxRecords: 500 }, { preserveLog: false, paused: false, maxRecords: 500 }],
    [{}, { preserveLog: false, paused: false, maxRecords: 50_000 }],
  ])("%j changes the log's settings to %j, and nothing extension-wide", async (options, state) => {
    const t = setup();
    await applyOptions(t.log, t.settings, checkOptions(options));
    expect(t.log.state).toMatchObject(state);
    expect(t.settings.setMaxBytes).not.toHaveBeenCalled();
    expect(t.settings.setReadyTimeout).not.toHaveBeenCalled();
  });

  it('gives the size cap and the ready limit to the extension-wide settings, not to the log', async () => {
    const t = setup();
    const before = { ...t.log.state };
    await applyOptions(t.log, t.settings, checkOptions({ maxBytes: 4096, readyTimeoutMs: 20_000 }));
    expect(t.settings.setMaxBytes).toHaveBeenCalledWith(4096);
    expect(t.settings.setReadyTimeout).toHaveBeenCalledWith(20_000);
    expect(t.log.state).toEqual(before);
  });

  it('a smaller bound evicts at once and says which records went', async () => {
    const t = setup(150);
    const removed = await applyOptions(t.log, t.settings, checkOptions({ maxRecords: 120 }));
    expect(removed).toHaveLength(30);
    expect(t.log.records.size).toBe(120);
    for (const seq of removed) {
      expect(t.log.records.has(seq)).toBe(false);
    }
  });

  it('a bound the log holds already evicts nothing', async () => {
    const t = setup(50);
    expect(await applyOptions(t.log, t.settings, checkOptions({ maxRecords: 120 }))).toEqual([]);
    expect(t.log.records.size).toBe(50);
  });
});
