import { describe, expect, it } from 'vitest';
import { readBatch, type BatchFrame } from './batch.ts';

const HOST = 'https://host.example';
const frame: BatchFrame = { frameId: 3, origin: HOST };
const env = { source: 'svc-embed', direction: 'event', type: 'svc:event:ready', payload: {}, timestamp: 1 };
const delivery = {
  time: 10,
  kind: 'receive',
  frameUrl: `${HOST}/page`,
  origin: 'https://tenant.example',
  from: 'child',
  data: env,
};
const postEntry = { kind: 'post', frameUrl: `${HOST}/page`, line: true };
const facts = { time: 11, targetOrigin: 'https://tenant.example', target: 'child', data: env };
const read = (entries: unknown[], lines: string[] = []) => readBatch(frame, JSON.stringify(entries), lines);

describe('a relay batch: every record rebuilt, its identity the extension’s', () => {
  it('keeps a delivery and a post of the MAIN world, each in its frame, with only their own fields', () => {
    const { records, dropped } = read([delivery, postEntry], [JSON.stringify(facts)]);
    expect(dropped).toBe(0);
    expect(records).toEqual([
      { ...delivery, frameId: 3 },
      { ...facts, kind: 'post', frameUrl: `${HOST}/page`, origin: HOST, frameId: 3 },
    ]);
  });

  // A frame's own world can write any line: what it says of where and how a record was made is not taken.
  it.each([
    ['kind', { kind: 'receive' }],
    ['frameUrl', { frameUrl: 'https://bank.example/account' }],
    ['origin', { origin: 'https://attacker.example' }],
    ['injected', { injected: true }],
    ['navigation', { navigation: true }],
    ['frameId', { frameId: 0 }],
    ['seq and pairing', { seq: 1, pairedWith: 2, dropped: true }],
  ])('a post line that claims its %s gets the extension’s instead', (_name, claim) => {
    const { records } = read([postEntry], [JSON.stringify({ ...facts, ...claim })]);
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({ ...facts, kind: 'post', frameUrl: `${HOST}/page`, origin: HOST, frameId: 3 });
  });

  it('a line cannot break out into the batch: its text is read alone, never spliced', () => {
    const breakout = `${JSON.stringify(facts).slice(0, -1)}},{"kind":"receive","frameUrl":"${HOST}/","origin":"x","time":1,"data":1`;
    const { records, dropped } = read([postEntry, delivery], [breakout]);
    expect(records).toEqual([{ ...delivery, frameId: 3 }]);
    expect(dropped).toBe(1);
  });

  it.each([
    ['not JSON', '{"time":'],
    ['not an object', '[1,2]'],
    ['no data', JSON.stringify({ time: 11, targetOrigin: '*' })],
    ['a time that is not a time', JSON.stringify({ ...facts, time: 'now' })],
    ['a target that is not a relation', JSON.stringify({ ...facts, target: 'top' })],
    ['a transfer that is not a count', JSON.stringify({ ...facts, transfer: -1 })],
    ['a huge target origin', JSON.stringify({ ...facts, targetOrigin: 'x'.repeat(70_000) })],
  ])('a bad line (%s) drops only itself; its neighbours stay', (_name, bad) => {
    const { records, dropped } = read([delivery, postEntry, postEntry, delivery], [JSON.stringify(facts), bad]);
    expect(records.map((r) => r.kind)).toEqual(['receive', 'post', 'receive']);
    expect(dropped).toBe(1);
  });

  it.each([
    ['a post the relay did not inject', { ...delivery, kind: 'post', targetOrigin: '*' }],
    ['a navigation', { ...delivery, navigation: true, kind: 'navigation' }],
    ['a record of a frame on another origin', { ...delivery, frameUrl: 'https://bank.example/' }],
    ['a line that is missing', { ...postEntry }],
    ['not an object', 42],
  ])('refuses %s, and keeps the rest', (_name, entry) => {
    const { records, dropped } = read([entry, delivery]);
    expect(records).toEqual([{ ...delivery, frameId: 3 }]);
    expect(dropped).toBe(1);
  });

  it('keeps a post the relay injected, as injected; a delivery never says it was injected', () => {
    const injected = { ...facts, kind: 'post', frameUrl: `${HOST}/`, origin: HOST, injected: true };
    const { records } = read([injected, { ...delivery, injected: true, navigation: true }]);
    expect(records[0]).toMatchObject({ kind: 'post', injected: true });
    expect(records[1]).toEqual({ ...delivery, frameId: 3 });
  });

  it('keeps a __proto__ key of the data as data, and gives the record no prototype of it', () => {
    const line = `{"time":11,"targetOrigin":"*","data":{"__proto__":{"verdict":"valid"},"type":"x"}}`;
    const { records } = read([postEntry], [line]);
    expect(Object.keys(records[0].data as object)).toEqual(['__proto__', 'type']);
    expect((records[0] as { verdict?: unknown }).verdict).toBeUndefined();
    expect(Object.getPrototypeOf(records[0].data)).toBe(Object.prototype);
  });

  it('a Firefox delivery whose data is a line of the page’s compartment: its data from the line only', () => {
    const { records } = read(
      [{ time: 10, kind: 'receive', frameUrl: `${HOST}/`, origin: HOST, line: true }],
      ['{"a":1},"kind":"post"'],
    );
    expect(records).toEqual([]);
    const ok = read([{ time: 10, kind: 'receive', frameUrl: `${HOST}/`, origin: HOST, line: true }], ['{"a":1}']);
    expect(ok.records).toEqual([
      { time: 10, kind: 'receive', frameUrl: `${HOST}/`, origin: HOST, data: { a: 1 }, frameId: 3 },
    ]);
  });
});
