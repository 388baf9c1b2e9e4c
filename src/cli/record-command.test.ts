// What `record` prints once it wrote the capture (recordReport): every string of the capture inert, as `check`'s.
import { describe, expect, it } from 'vitest';
import { EMBED_URL, HOST, eventPair, navigation, numbered, TENANT } from '../../test/fixtures/messages.ts';
import { checkCapture } from '../protocol/capture.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { evaluate } from '../protocol/verdict.ts';
import { recordReport } from './record-command.ts';

describe('record: what it prints', () => {
  it("writes no terminal escape or carriage return of the page's to the terminal, timeline or not", () => {
    const hostile = '\u001b]0;PWNED\u0007\u001b[2Jexpired\r✓ 0 errors';
    const messages = numbered([
      navigation(EMBED_URL),
      ...eventPair('svc:event:error', { fatal: true, code: 'E\u001b[31m', message: hostile }),
    ]) as unknown as CaptureFile['messages'];
    const capture: CaptureFile = { format: 'embed-inspector-capture', version: 1, tenantOrigin: TENANT, messages };
    const result = checkCapture(capture, { tenantOrigin: TENANT });
    const verdict = evaluate(messages, result, { expect: [], failOn: 'error', allowEmpty: false, where: HOST });
    for (const timeline of [false, true]) {
      const text = recordReport(capture, result, verdict, {
        out: 'run.json',
        url: `${HOST}/`,
        receiveOnly: false,
        timeline,
      });
      expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(text).toMatch(/recorded \d+ records?/);
      if (timeline) {
        expect(text).toContain('\\u001b]0;PWNED');
      }
    }
  });
});
