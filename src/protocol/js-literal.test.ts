import { describe, expect, it } from 'vitest';
import { literal } from './js-literal.ts';

describe('literal: values as code', () => {
  const roundTrip = (v: unknown) => new Function(`return (${literal(v)});`)();

  it('escapes every string with JSON.stringify and keeps odd keys as own properties', () => {
    const v = JSON.parse(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a string that reads like a template must stay a string
      '{"a\\"b": "x\\"y\\\\z\\n\\u2028`${no}`*/", "__proto__": {"polluted": true}, "ok_1": [1, -2.5, null, true], "": {}}',
    );
    const back = roundTrip(v);
    expect(back).toEqual(v);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('writes the values a capture decodes to beside JSON', () => {
    const v = {
      u: undefined,
      nan: Number.NaN,
      inf: -Infinity,
      big: 12n,
      d: new Date('2026-01-02T00:00:00.000Z'),
      m: new Map([['k', 1]]),
      s: new Set(['a']),
      r: /a+b/gi,
    };
    const back = roundTrip(v);
    expect(back).toEqual(v);
    expect(back.r).toEqual(/a+b/gi);
  });

  it('breaks a long value over lines, each entry on one line when it fits', () => {
    const v = { type: 'svc:action:set-theme', payload: { primaryColor: '#7c3aed', borderRadius: 14, font: 'Georgia' } };
    expect(literal(v, '', 200)).toBe(
      '{ type: "svc:action:set-theme", payload: { primaryColor: "#7c3aed", borderRadius: 14, font: "Georgia" } }',
    );
    expect(literal(v, '  ', 80)).toBe(
      '{\n    type: "svc:action:set-theme",\n    payload: { primaryColor: "#7c3aed", borderRadius: 14, font: "Georgia" },\n  }',
    );
  });
});
