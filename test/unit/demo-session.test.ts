/**
 * The demo session (src/panel/app/synthetic.ts) says what the product says: the records it builds, handed to the
 * background's log as a tab's frames would hand them over, are numbered, paired, judged dropped and classified
 * exactly as the demo shows them; and it shows the faults it is there to show, and no other.
 */
import { describe, expect, it } from 'vitest';
import { demoCapture, HOST_URL, syntheticSession, TENANT, XSS_TITLE } from '../../src/panel/app/synthetic.ts';
import { newState, TabLog } from '../../src/background/tablog.ts';
import { causalOrder } from '../../src/protocol/order.ts';
import { inferTenantOrigin } from '../../src/protocol/tenant.ts';
import type { ClassifiedRecord, RawRecord } from '../../src/shared/messages.ts';

/** What the panel shows of a record's judgement. */
const judgement = (r: ClassifiedRecord) => ({
  seq: r.seq,
  kind: r.kind,
  pairedWith: r.pairedWith,
  dropped: r.dropped,
  verdict: r.verdict,
  issues: r.issues.map((i) => ({ rule: i.rule, severity: i.severity, path: i.path, sender: i.sender })),
});

/** The background's log of a tab holding the demo's host page and embed, fed the demo's records as captured. */
function backgroundLog(n: number): ClassifiedRecord[] {
  const captured = demoCapture(n);
  const embedUrl = captured.find((r) => r.navigation)?.frameUrl ?? '';
  const log = new TabLog(newState(1, { pageUrl: HOST_URL, maxRecords: 1_000_000 }));
  log.setFrame({ frameId: 0, parentFrameId: -1, url: HOST_URL });
  log.setFrame({ frameId: 7, parentFrameId: 0, url: embedUrl });
  // What a frame hands over: no number, no pairing, nothing judged (the background does all three).
  const raws = captured.map(({ seq: _s, pairedWith: _p, dropped: _d, ...r }) => r as RawRecord & { frameId: number });
  log.add(raws);
  log.diagnose(captured.at(-1)?.time); // (judged at the last record, as the demo is)
  return [...log.records.values()];
}

describe('the demo session', () => {
  it.each([60, 200, 3_000])('of %i records is what the background makes of the same capture', (n) => {
    const demo = syntheticSession(n);
    expect(demo).toHaveLength(n);
    expect(backgroundLog(n).map(judgement)).toEqual(demo.map(judgement));
  });

  it('is numbered in causal order, and its tenant origin is found from the embed frame', () => {
    const captured = demoCapture(500);
    expect(causalOrder(captured).map((r) => r.seq)).toEqual(captured.map((r) => r.seq));
    expect(inferTenantOrigin(captured)?.origin).toBe(TENANT);
  });

  it('shows each fault it is there to show, and no other', () => {
    const demo = syntheticSession(3_000); // (every variation of the repeating middle, many times)
    const found = new Map<string, ClassifiedRecord>();
    for (const r of demo) {
      for (const i of r.issues) {
        if (!i.sender) {
          found.set(`${i.severity} ${i.rule}`, found.get(`${i.severity} ${i.rule}`) ?? r);
        }
      }
    }
    expect([...found.keys()].sort()).toEqual([
      'error action.timezone',
      'error envelope.surface-missing',
      'error origin.action-target',
      'error origin.action-wildcard',
      'error surface.not-allowed',
      'warning download.row-count',
    ]);
    // The post to another origin is the one the browser dropped, and nothing received it.
    const wrong = found.get('error origin.action-target');
    expect(wrong).toMatchObject({ kind: 'post', dropped: true, targetOrigin: 'https://wrong.example' });
    expect(wrong?.pairedWith).toBeUndefined();
    // A delivery of a faulty post shows its post's issues.
    const wildcard = found.get('error origin.action-wildcard');
    const delivery = demo.find((r) => r.seq === wildcard?.pairedWith);
    expect(delivery?.verdict).toBe('invalid');
    expect(delivery?.issues).toContainEqual(expect.objectContaining({ rule: 'origin.action-wildcard', sender: true }));
    // The markup that tests the panel's escaping is there, in a message judged like any other.
    const title = (r: ClassifiedRecord) => (r.data as { payload?: { title?: unknown } }).payload?.title;
    expect(demo.find((r) => title(r) === XSS_TITLE)?.verdict).toBe('valid');
  });
});
