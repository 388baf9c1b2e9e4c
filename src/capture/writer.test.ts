import { describe, expect, it } from 'vitest';
import type { RawRecord } from '../shared/messages.ts';
import { close, field, head, open, text } from './writer.ts';
import { dataJson } from './serialize.ts';

// Records written as the page writes them (page.ts for posts, deliveries.ts for deliveries), and the RawRecord
// each must parse to: the text is concatenated, so the round trip is what proves it well-formed.
const URL_ODD = 'http://127.0.0.1:4100/a"b\\c?q=\u2028é#frag';
const DATA = { source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: 1 };
const CASES: Array<[string, string, RawRecord]> = [
  [
    'a post with every optional field',
    open(1.5, head('post', URL_ODD) + text('origin', 'http://127.0.0.1:4100')) +
      text('targetOrigin', 'not a url') +
      text('target', 'child') +
      field('targetUrl', JSON.stringify('http://localhost:4101/embed')) +
      field('originalSize', '123') +
      field('transfer', '2') +
      text('error', "SyntaxError: Invalid target origin 'not a url'") +
      close(dataJson(DATA, 1e6).json),
    {
      time: 1.5,
      kind: 'post',
      frameUrl: URL_ODD,
      origin: 'http://127.0.0.1:4100',
      targetOrigin: 'not a url',
      target: 'child',
      targetUrl: 'http://localhost:4101/embed',
      originalSize: 123,
      transfer: 2,
      error: "SyntaxError: Invalid target origin 'not a url'",
      data: DATA,
    },
  ],
  [
    'a delivery',
    open(2, head('receive', 'http://localhost:4101/embed')) +
      text('origin', 'http://127.0.0.1:4100') +
      text('from', 'parent') +
      close(dataJson('hi', 1e6).json),
    {
      time: 2,
      kind: 'receive',
      frameUrl: 'http://localhost:4101/embed',
      origin: 'http://127.0.0.1:4100',
      from: 'parent',
      data: 'hi',
    },
  ],
  [
    'a delivery of a non-JSON value, with a time that is not finite',
    open(Number.NaN, head('receive', '')) + text('origin', '') + close(dataJson(new Date(0), 1e6).json),
    { time: 0, kind: 'receive', frameUrl: '', origin: '', data: { $ei: 'Date', v: '1970-01-01T00:00:00.000Z' } },
  ],
];

describe('record writer', () => {
  it.each(CASES)('%s: round trip', (_name, json, expected) => {
    expect(JSON.parse(json)).toEqual(expected);
  });

  it('writes only RawRecord fields, in a batch the relay can splice', () => {
    const batch = `[${CASES.map((c) => c[1]).join(',')}]`;
    const parsed = JSON.parse(batch) as RawRecord[];
    const known: Array<keyof RawRecord> = [
      'time',
      'kind',
      'frameUrl',
      'origin',
      'targetOrigin',
      'target',
      'targetUrl',
      'originalSize',
      'transfer',
      'error',
      'from',
      'data',
    ];
    for (const r of parsed) {
      for (const k of Object.keys(r)) {
        expect(known).toContain(k);
      }
    }
  });
});
