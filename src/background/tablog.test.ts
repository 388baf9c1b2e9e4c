import { describe, expect, it } from 'vitest';
import { TabLog, newState } from './tablog.ts';
import type { RawRecord } from '../shared/messages.ts';

const HOST = 'https://host.example';
const TENANT = 'https://acme.example.com';
const EMBED_URL = `${TENANT}/embed/dashboard/abc`;
const ready = {
  source: 'svc-embed',
  direction: 'event',
  type: 'svc:event:ready',
  surface: 'dashboard',
  payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' },
  timestamp: 1_700_000_000_000,
};
const refresh = (n = 0) => ({
  source: 'svc-embed',
  direction: 'action',
  type: 'svc:action:refresh',
  payload: {},
  timestamp: 1_700_000_000_100 + n,
});

function log(max?: number) {
  const l = new TabLog(newState(7, max ? { maxRecords: max } : {}));
  l.frames.set(0, { frameId: 0, parentFrameId: -1, url: `${HOST}/` });
  l.frames.set(3, { frameId: 3, parentFrameId: 0, url: EMBED_URL });
  return l;
}
const hostPost = (data: unknown, targetOrigin = TENANT, time = 1000): RawRecord & { frameId: number } => ({
  time,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  targetOrigin,
  target: 'child',
  data,
  frameId: 0,
});
const embedReceive = (data: unknown, time = 1001): RawRecord & { frameId: number } => ({
  time,
  kind: 'receive',
  frameUrl: EMBED_URL,
  origin: HOST,
  from: 'parent',
  data,
  frameId: 3,
});
const embedPost = (data: unknown, time = 500): RawRecord & { frameId: number } => ({
  time,
  kind: 'post',
  frameUrl: EMBED_URL,
  origin: TENANT,
  targetOrigin: HOST,
  target: 'parent',
  data,
  frameId: 3,
});
const hostReceive = (data: unknown, time = 501): RawRecord & { frameId: number } => ({
  time,
  kind: 'receive',
  frameUrl: `${HOST}/`,
  origin: TENANT,
  from: 'child',
  data,
  frameId: 0,
});

describe('TabLog', () => {
  it('numbers records in capture order and pairs a post with its delivery, whichever arrives first', () => {
    const l = log();
    const a = l.add([embedReceive(refresh())]);
    const b = l.add([hostPost(refresh())]);
    expect(a.added[0].seq).toBe(1);
    expect(b.added[0].seq).toBe(2);
    expect(b.added[0].pairedWith).toBe(1);
    expect(b.updated.map((r) => r.pairedWith)).toEqual([2]);
  });

  it('does not pair messages that differ, or that went between unrelated frames', () => {
    const l = log();
    l.add([hostPost(refresh(1))]);
    const r = l.add([embedReceive(refresh(2)), { ...hostReceive(refresh(1)) }]);
    expect(r.added.every((x) => x.pairedWith === undefined)).toBe(true);
  });

  it('marks a post whose target origin does not match the target frame as dropped by the browser', () => {
    const l = log();
    l.setTenantOrigin(TENANT);
    const r = l.add([hostPost(refresh(), 'https://wrong.example')]);
    expect(r.added[0].dropped).toBe(true);
    expect(r.added[0].verdict).toBe('invalid');
    const ok = l.add([hostPost(refresh(3), '*'), hostPost(refresh(4))]);
    expect(ok.added.map((x) => x.dropped)).toEqual([undefined, undefined]);
  });

  it('infers the tenant origin from ready and re-classifies what came before', () => {
    const l = new TabLog(newState(1));
    l.frames.set(0, { frameId: 0, parentFrameId: -1, url: `${HOST}/` });
    l.add([
      {
        ...hostReceive({ ...ready, type: 'svc:event:view', payload: { surface: 'dashboard', path: '/' } }),
        origin: 'https://evil.example',
      },
    ]);
    expect(l.state.tenantOrigin).toBeNull();
    const r = l.add([hostReceive(ready, 600)]);
    expect(r.reclassified).toBe(true);
    expect(l.state).toMatchObject({ tenantOrigin: TENANT, tenantOriginSource: 'ready' });
    const first = l.records.get(1)!;
    expect(first.issues.map((i) => i.rule)).toContain('origin.event');
  });

  it('keeps a hand-set tenant origin across a new log', () => {
    const l = log();
    l.setTenantOrigin('https://Other.example:443');
    l.reset('https://host.example/next');
    expect(l.state).toMatchObject({
      tenantOrigin: 'https://other.example',
      tenantOriginSource: 'manual',
      pageUrl: 'https://host.example/next',
    });
  });

  it('bounds the buffer, dropping the oldest and counting them', () => {
    const l = log(100);
    for (let i = 0; i < 150; i++) {
      l.add([hostReceive({ ...ready, timestamp: ready.timestamp + i }, i)]);
    }
    expect(l.records.size).toBe(100);
    expect(l.state.dropped).toBe(50);
    expect([...l.records.keys()][0]).toBe(51);
  });

  it('caps foreign traffic to its share so that it cannot push protocol messages out', () => {
    const l = log(1000);
    for (let i = 0; i < 20; i++) {
      l.add([hostReceive({ ...ready, timestamp: ready.timestamp + i }, i)]);
    }
    for (let i = 0; i < 3000; i++) {
      l.add([hostReceive({ react: 'devtools', i }, 100 + i)]);
    }
    const held = [...l.records.values()];
    expect(held.filter((r) => r.verdict !== 'foreign')).toHaveLength(20);
    expect(l.state.foreignCount).toBe(100);
    expect(l.state.foreignDropped).toBe(2900);
    expect(l.state.dropped).toBe(2900);
  });

  it('exports a capture file without the verdicts', () => {
    const l = log();
    l.add([embedPost(ready), hostReceive(ready)]);
    const file = l.exportCapture('test');
    expect(file).toMatchObject({ format: 'embed-inspector-capture', version: 1, tenantOrigin: TENANT });
    expect(file.messages).toHaveLength(2);
    expect(file.messages[0]).not.toHaveProperty('verdict');
    expect(file.messages[1].pairedWith).toBe(1);
  });

  it('rebuilds the same classification when restored from its records', () => {
    const l = log();
    l.add([embedPost(ready), hostReceive(ready), embedPost(ready, 700)]);
    const copy = new TabLog(
      { ...l.state },
      [...l.records.values()].map((r) => structuredClone(r)),
      l.nextSeq,
    );
    expect([...copy.records.values()].map((r) => r.verdict)).toEqual([...l.records.values()].map((r) => r.verdict));
    expect(copy.nextSeq).toBe(4);
  });
});
