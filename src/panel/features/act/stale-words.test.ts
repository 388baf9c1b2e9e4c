/**
 * Words that belong to a state go with it: the composer's "Sent: …" (Clear, a page navigation, an import), the
 * tenant origin's source (inferred, from the file, set by hand), the set-theme form's fields and its empty theme.
 */
import { describe, expect, it } from 'vitest';
import { createRoot } from 'solid-js';
import { createStore } from '../../app/create-store.ts';
import { createFileTransport, createMemoryTransport } from '../../link/transports.ts';
import { syntheticSession, TENANT, HOST_URL } from '../../app/synthetic.ts';
import { createActController } from './act-controller.ts';
import { captureOf } from './capture-file.ts';
import { draftNotes, envelope, formFields } from './composer.ts';
import { tenantSource } from '../../ui/tenant-source.ts';
import { readCapture } from '../../log/protocol.ts';
import type { ClassifiedRecord } from '../../../shared/messages.ts';

function setup() {
  const ticks: Array<() => void> = [];
  const store = createStore({ schedule: (fn) => ticks.push(fn), tabId: 5 });
  const live = createMemoryTransport({ tabId: 5, records: [], state: { tenantOrigin: TENANT, pageUrl: HOST_URL } });
  store.attach(live);
  const tick = () => {
    for (const fn of ticks.splice(0)) {
      fn();
    }
  };
  const records = syntheticSession(60);
  live.push(records.filter((r) => !r.navigation));
  tick();
  let dispose!: () => void;
  const act = createRoot((d) => {
    dispose = d;
    return createActController({ store, link: null, useTransport: (t) => store.attach(t) });
  });
  const sent = () => act.setOutcome({ ok: true, text: 'Sent: the injected post and its delivery appear' });
  return { store, live, tick, act, sent, records, dispose };
}
const fileOf = (records: readonly ClassifiedRecord[], tenantOrigin: string | null) =>
  readCapture(JSON.parse(JSON.stringify(captureOf(records, { tenantOrigin, pageUrl: HOST_URL, redact: false }))));

describe('the composer\'s "Sent: …" belongs to its session', () => {
  it('is cleared by Clear', () => {
    const { store, act, sent, dispose } = setup();
    sent();
    expect(act.outcome()?.text).toMatch(/^Sent/);
    store.log.clear();
    expect(act.outcome()).toBeNull();
    dispose();
  });

  it('is cleared when the page navigates (a top-frame navigation record)', () => {
    const { live, tick, act, sent, records, dispose } = setup();
    sent();
    // the embed frame's navigation is not the page's: the words stay
    const sub = records.find((r) => r.navigation && r.frameId !== 0)!;
    const last = records[records.length - 1].time;
    live.push([{ ...sub, seq: 10_000, time: last + 1_000 }]);
    tick();
    expect(act.outcome()).not.toBeNull();
    // the page's own (its top frame) is a new session
    live.push([{ ...sub, seq: 10_001, time: last + 2_000, frameId: 0, frameUrl: HOST_URL, data: { url: HOST_URL } }]);
    tick();
    expect(act.outcome()).toBeNull();
    dispose();
  });

  it('is cleared by an import, and by going back to live', () => {
    const { act, sent, records, dispose } = setup();
    sent();
    const file = JSON.stringify(captureOf(records, { tenantOrigin: TENANT, redact: false }));
    expect(act.importText(file, 'session.json')).toBe(true);
    expect(act.outcome()).toBeNull();
    dispose();
  });

  it('is kept by live records of the same page', () => {
    const { live, tick, act, sent, records, dispose } = setup();
    sent();
    live.push([{ ...records.find((r) => !r.navigation)!, seq: 20_000 }]);
    tick();
    expect(act.outcome()?.text).toMatch(/^Sent/);
    dispose();
  });
});

describe('the tenant origin says where it came from', () => {
  it('an imported file that names it: "from the file"', () => {
    const store = createStore({ tabId: null });
    store.attach(createFileTransport(fileOf(syntheticSession(60), TENANT), 'x.json'));
    expect(store.log.state.tenantOrigin).toBe(TENANT);
    expect(tenantSource(store.log.state.tenantOriginSource)?.tag).toBe('from the file');
  });
  it('a file that does not name it: inferred', () => {
    const store = createStore({ tabId: null });
    store.attach(createFileTransport(fileOf(syntheticSession(60), null), 'x.json'));
    expect(store.log.state.tenantOrigin).toBe(TENANT);
    expect(tenantSource(store.log.state.tenantOriginSource)?.tag).toBe('inferred');
  });
  it('set by hand over a file: "set by hand"', () => {
    const store = createStore({ tabId: null });
    store.attach(createFileTransport(fileOf(syntheticSession(60), TENANT), 'x.json'));
    store.command({ type: 'set-tenant-origin', origin: 'https://other.example' });
    expect(tenantSource(store.log.state.tenantOriginSource)?.tag).toBe('set by hand');
  });
  it.each([
    ['manual', 'set by hand'],
    ['file', 'from the file'],
    ['embed-frame', 'inferred'],
  ] as const)('%s → %s', (source, tag) => {
    expect(tenantSource(source)?.tag).toBe(tag);
  });
});

describe('the set-theme form', () => {
  it("offers the spec's three common fields with their meaning", () => {
    const fields = formFields('svc:action:set-theme');
    expect(fields.map((f) => f.name)).toEqual(['primaryColor', 'borderRadius', 'font']);
    for (const f of fields) {
      expect(f.hint).toContain('embedTheme');
      expect(f.hint).not.toMatch(/not shown/);
      expect(f.required).toBe(false);
    }
  });
  it('flags an empty theme, and only an empty one', () => {
    expect(draftNotes(envelope('svc:action:set-theme', {}))).toEqual([expect.stringMatching(/empty theme/)]);
    expect(draftNotes(envelope('svc:action:set-theme', { primaryColor: '#0a7' }))).toEqual([]);
    expect(draftNotes(envelope('svc:action:refresh', {}))).toEqual([]);
  });
});
