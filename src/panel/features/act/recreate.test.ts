import { describe, expect, it } from 'vitest';
import { recreateOf } from './recreate.ts';
import { HOST, syntheticSession, TENANT } from '../../app/synthetic.ts';
import type { ClassifiedRecord } from '../../../shared/messages.ts';

const records = syntheticSession(200);
const dir = (r: ClassifiedRecord) => (r.data as { direction?: string } | null)?.direction;
const action = records.find((r) => dir(r) === 'action' && r.kind === 'post' && r.verdict !== 'foreign')!;
const event = records.find((r) => dir(r) === 'event' && r.kind === 'post' && r.verdict !== 'foreign')!;
const origins = { tenantOrigin: TENANT, hostOrigin: HOST };
const from = (r: ClassifiedRecord, origin: string): ClassifiedRecord => ({ ...r, origin });

describe('"Simulate again" / "Re-send" only where it re-creates the sender', () => {
  it.each([
    ['an action from the host page', action, HOST, 'action', false],
    ['an action from a third origin', action, 'https://third.example', 'action', true],
    ['an event from the embed', event, TENANT, 'event', false],
    ['an event from a third origin', event, 'https://third.example', 'event', true],
  ] as const)('%s', (_name, r, origin, side, third) => {
    const a = recreateOf(from(r, origin), origins)!;
    expect(a.side).toBe(side);
    expect(a.label).toBe(side === 'event' ? '↻ Simulate again' : '↻ Re-send as captured');
    expect(!!a.thirdOrigin).toBe(third);
    if (third) {
      expect(a.thirdOrigin).toContain('https://third.example');
    }
  });

  it('offers nothing for a navigation or foreign traffic', () => {
    const nav = records.find((r) => r.navigation)!;
    const foreign = records.find((r) => r.verdict === 'foreign' && !r.navigation)!;
    expect(recreateOf(nav, origins)).toBeNull();
    expect(recreateOf(foreign, origins)).toBeNull();
  });
});
