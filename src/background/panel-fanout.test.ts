import { describe, expect, it } from 'vitest';
import {
  MESSAGES_VERSION,
  newTabState,
  type BackgroundToPanel,
  type ClassifiedRecord,
  type PanelToBackground,
} from '../shared/messages.ts';
import { backgroundPanelChannel } from '../shared/channel.ts';
import { PanelFanout } from './panel-fanout.ts';
import type { AddResult, TabLogView } from './tablog.ts';
import { fakePort } from '../../test/helpers/background-fakes.ts';

const TAB = 7;

const rec = (seq: number): ClassifiedRecord => ({
  seq,
  time: 1000 + seq,
  kind: 'post',
  frameUrl: 'https://host.example/',
  origin: 'https://host.example',
  data: { n: seq },
  verdict: 'valid',
  issues: [],
});

function setup(held: number[] = []) {
  const records = new Map(held.map((s) => [s, rec(s)]));
  const log: TabLogView = {
    records,
    nextSeq: (held.at(-1) ?? 0) + 1,
    frames: new Map(),
    state: newTabState(TAB, { paused: true }),
    sessionBase: null,
  };
  const fanout = new PanelFanout(
    TAB,
    {
      maxBytes: () => 4096,
      readyTimeoutMs: () => 15_000,
      captureMessage: async () => ({
        type: 'capture',
        scope: { all: null, sites: [] },
        sites: [{ origin: 'https://host.example', top: true, mode: 'full' }],
      }),
    },
    () => log,
  );
  const panel = async () => {
    const p = fakePort<PanelToBackground, BackgroundToPanel>('panel');
    const sink = backgroundPanelChannel(p.port);
    await fanout.subscribe(sink);
    p.sent.length = 0;
    return { ...p, types: () => p.sent.map((m) => m.type) };
  };
  return { fanout, panel, log };
}

const result = (over: Partial<AddResult>): AddResult => ({
  added: [],
  updated: [],
  removed: [],
  reclassified: false,
  ...over,
});

describe('panel fan-out', () => {
  it('a panel that subscribes gets the snapshot with the extension-wide settings, then the capture scope', async () => {
    const { fanout } = setup([1, 2]);
    const p = fakePort<PanelToBackground, BackgroundToPanel>('panel');
    await fanout.subscribe(backgroundPanelChannel(p.port));
    expect(p.sent.map((m) => m.type)).toEqual(['snapshot', 'capture']);
    expect(p.sent.every((m) => m.v === MESSAGES_VERSION)).toBe(true);
    const snap = p.sent[0] as Extract<BackgroundToPanel, { type: 'snapshot' }>;
    expect(snap.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(snap.state).toMatchObject({ tabId: TAB, paused: true, maxBytes: 4096, readyTimeoutMs: 15_000 });
    expect(fanout.live).toBe(true);
  });

  it.each([
    ['new records', result({ added: [rec(3)] }), ['records', 'state']],
    ['paired records', result({ updated: [rec(1)] }), ['update', 'state']],
    ['new and paired', result({ added: [rec(3)], updated: [rec(1)] }), ['records', 'update', 'state']],
    ['evicted records first', result({ added: [rec(3)], removed: [1] }), ['removed', 'records', 'state']],
    ['a new tenant origin: the whole log', result({ added: [rec(3)], reclassified: true }), ['snapshot']],
    ['nothing', result({}), ['state']],
  ])('publishes %s', async (_what, res, types) => {
    const { fanout, panel } = setup([1, 2]);
    const p = await panel();
    fanout.added(res);
    expect(p.types()).toEqual(types);
  });

  it('late records: the held records from the cut on replace the panels’, updates before it come apart', async () => {
    const { fanout, panel } = setup([1, 2, 3, 4]);
    const p = await panel();
    fanout.added(result({ added: [rec(3)], updated: [rec(1), rec(4)], reorderedFrom: 3 }));
    expect(p.types()).toEqual(['reorder', 'update', 'state']);
    const reorder = p.sent[0] as Extract<BackgroundToPanel, { type: 'reorder' }>;
    expect(reorder.fromSeq).toBe(3);
    expect(reorder.records.map((r) => r.seq)).toEqual([3, 4]);
    const update = p.sent[1] as Extract<BackgroundToPanel, { type: 'update' }>;
    expect(update.records.map((r) => r.seq)).toEqual([1]);
  });

  it('a panel whose port is gone is dropped; the others still hear', async () => {
    const { fanout, panel } = setup([1]);
    const gone = await panel();
    const stays = await panel();
    gone.close();
    fanout.state();
    fanout.snapshot();
    expect(stays.types()).toEqual(['state', 'snapshot']);
    expect(gone.sent).toEqual([]);
    fanout.unsubscribe(backgroundPanelChannel(stays.port)); // another channel object: not the subscriber
    expect(fanout.live).toBe(true);
  });

  it('an unsubscribed panel hears nothing more, and the scope goes to no one', async () => {
    const { fanout } = setup([1]);
    const p = fakePort<PanelToBackground, BackgroundToPanel>('panel');
    const sink = backgroundPanelChannel(p.port);
    await fanout.subscribe(sink);
    fanout.unsubscribe(sink);
    p.sent.length = 0;
    fanout.update([rec(1)]);
    await fanout.capture();
    expect(p.sent).toEqual([]);
    expect(fanout.live).toBe(false);
  });

  it('an empty update is not sent', async () => {
    const { fanout, panel } = setup([1]);
    const p = await panel();
    fanout.update([]);
    await fanout.capture();
    expect(p.types()).toEqual(['capture']);
  });
});
