import { describe, expect, it } from 'vitest';
import { checkEmbedAddress } from '../../protocol/address.ts';
import { addressParts } from './address-parts.ts';

const TENANT = 'https://acme.example.com';

describe('an embed address, part by part', () => {
  it('marks each wrong part that is there, and names as missing only what is not', () => {
    const url = `${TENANT}/embed/dashboards/dA7k?allowExport=yes&timezone=%2B02%3A00&f_orders.region=notjson&theme=dark`;
    const issues = checkEmbedAddress(url, { tenantOrigin: TENANT });
    const parts = addressParts(url, issues)!;
    const rulesOf = (text: string) => parts.find((p) => p.text === text)!.issues.map((n) => issues[n].rule);
    expect(parts.map((p) => [p.kind, p.text])).toEqual([
      ['origin', TENANT],
      ['path', '/embed/dashboards/dA7k'],
      ['param', 'allowExport=yes'],
      ['param', 'timezone=+02:00'],
      ['param', 'f_orders.region=notjson'],
      ['param', 'theme=dark'],
      ['absent', 'session'],
    ]);
    expect(rulesOf(TENANT)).toEqual([]);
    expect(rulesOf('/embed/dashboards/dA7k')).toEqual(['url.path']);
    expect(rulesOf('allowExport=yes')).toEqual(['url.allow-export']);
    expect(rulesOf('timezone=+02:00')).toEqual(['url.timezone-offset']);
    expect(rulesOf('f_orders.region=notjson')).toEqual(['url.filter']);
    expect(rulesOf('theme=dark')).toEqual(['url.param-unknown']);
    expect(rulesOf('session')).toEqual(['url.session']);
    // every issue marks a part
    expect(new Set(parts.flatMap((p) => p.issues)).size).toBe(issues.length);
  });

  it("never shows the session's value; an empty session is there, and wrong", () => {
    const parts = addressParts(`${TENANT}/embed/dashboard/x?session=SECRET-1`, [])!;
    expect(JSON.stringify(parts)).not.toContain('SECRET-1');
    const empty = `${TENANT}/embed/dashboard/x?session=`;
    const issues = checkEmbedAddress(empty);
    const p = addressParts(empty, issues)!;
    expect(p.find((x) => x.text === 'session=')!.issues.map((n) => issues[n].rule)).toEqual(['url.session']);
    expect(p.some((x) => x.kind === 'absent')).toBe(false);
    expect(addressParts('not a url', [])).toBeNull();
  });
});
