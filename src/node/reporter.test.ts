// The coverage reporter over a suite as Playwright hands it (fake test cases whose results carry the fixture's
// attachments): what it writes, how it names tests and captures, how a minimum not met ends the run (a status in a
// test run, an error under merge-reports, whose exit status only reporter errors set). The real runs, sharded and
// merged, are test/e2e/coverage-reporter.test.ts.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, Suite, TestCase } from '@playwright/test/reporter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { summarizeCapture, type Coverage } from '../protocol/coverage.ts';
import type { CaptureFile, CaptureRecord } from '../protocol/record.ts';
import { redactCapture } from '../protocol/redact.ts';
import { actionPair, eventPair, numbered } from '../../test/fixtures/messages.ts';
import EmbedCoverageReporter from './reporter.ts';

const capture = (records: Array<Record<string, unknown>>): CaptureFile => ({
  format: 'embed-inspector-capture',
  version: 1,
  tenantOrigin: null,
  messages: numbered(records) as CaptureRecord[],
});
const READY = capture(eventPair('svc:event:ready'));
const WILDCARD = capture([...eventPair('svc:event:ready'), ...actionPair('svc:action:refresh', {}, '*')]);
const json = (v: unknown) => ({
  name: 'embed-coverage.json',
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(v)),
});

function testCase(titles: string[], results: Array<{ status: string; attachments: unknown[] }>, over = {}): TestCase {
  return {
    titlePath: () => ['', 'chromium', 'e2e/embed.spec.ts', ...titles],
    repeatEachIndex: 0,
    expectedStatus: 'passed',
    results,
    location: { file: '/x/e2e/embed.spec.ts', line: 1, column: 1 },
    ...over,
  } as unknown as TestCase;
}

async function run(tests: TestCase[], options: Record<string, unknown> = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'ei-reporter-unit-'));
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    printed.push(String(s));
    return true;
  });
  const r = new EmbedCoverageReporter({ outputFolder: folder, configDir: '/x', ...options });
  r.onBegin({ configFile: '/x/playwright.config.ts' } as FullConfig, { allTests: () => tests } as unknown as Suite);
  const end = r.onEnd({ status: 'passed' } as never);
  return { folder, end, printed };
}
const coverageIn = (folder: string) => JSON.parse(readFileSync(join(folder, 'coverage.json'), 'utf8')) as Coverage;

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.EMBED_INSPECTOR_REPORT_DIR;
});

describe('embed-inspector/playwright/reporter', () => {
  it('adds the tests’ summaries up into coverage.json and index.html, each capture beside them, then prints a summary', async () => {
    const failing = testCase(
      ['posts to "*"'],
      [
        {
          status: 'failed',
          attachments: [
            {
              name: 'embed-capture.json',
              contentType: 'application/json',
              body: Buffer.from(JSON.stringify(WILDCARD)),
            },
            json(summarizeCapture(WILDCARD)),
          ],
        },
      ],
    );
    const { folder, end, printed } = await run([
      testCase(['loads'], [{ status: 'passed', attachments: [json(summarizeCapture(READY))] }]),
      { ...failing, expectedStatus: 'failed' } as TestCase,
      testCase(['no embed'], [{ status: 'passed', attachments: [] }]),
    ]);
    expect(await end).toBeUndefined();
    const c = coverageIn(folder);
    expect(c.tests.map((t) => [t.id, t.title, t.file, t.project, t.status, t.hasData])).toEqual([
      [
        'chromium › e2e/embed.spec.ts › loads',
        'e2e/embed.spec.ts › loads',
        'e2e/embed.spec.ts',
        'chromium',
        'passed',
        true,
      ],
      [
        'chromium › e2e/embed.spec.ts › no embed',
        'e2e/embed.spec.ts › no embed',
        'e2e/embed.spec.ts',
        'chromium',
        'passed',
        false,
      ],
      [
        'chromium › e2e/embed.spec.ts › posts to "*"',
        'e2e/embed.spec.ts › posts to "*"',
        'e2e/embed.spec.ts',
        'chromium',
        'failed (expected)',
        true,
      ],
    ]);
    const link = c.tests[2].capture!;
    expect(link).toMatch(/^captures\/e2e-embed-spec-ts-posts-to-[0-9a-f]{10}\.json$/);
    expect(JSON.parse(readFileSync(join(folder, link), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(redactCapture(WILDCARD))),
    );
    expect(readdirSync(join(folder, 'captures'))).toHaveLength(1);
    expect(c.rules['origin.action-wildcard'].tests).toEqual(['chromium › e2e/embed.spec.ts › posts to "*"']);
    expect(readFileSync(join(folder, 'index.html'), 'utf8')).toContain(`<a href="${link}">capture</a>`);
    const text = printed.join('');
    expect(text).toContain('Embed protocol coverage: 3 tests (2 with embed data), 3 messages\n');
    expect(text).toContain(`Embed protocol coverage report: ${join(folder, 'index.html')}`);
  });

  it('counts every run of a retried test; an unreadable summary is a test without data that says why', async () => {
    const { folder, end } = await run([
      testCase(
        ['flaky'],
        [
          { status: 'failed', attachments: [json(summarizeCapture(READY))] },
          { status: 'passed', attachments: [json(summarizeCapture(WILDCARD))] },
        ],
      ),
      testCase(
        ['odd'],
        [{ status: 'passed', attachments: [json({ format: 'embed-inspector-test-coverage', version: 9 })] }],
      ),
    ]);
    await end;
    const c = coverageIn(folder);
    expect(c.types['svc:event:ready'].messages).toBe(2);
    expect(c.tests[1]).toMatchObject({
      hasData: false,
      error: 'unreadable embed-coverage.json: coverage summary version 9; this embed-inspector reads version 1',
    });
  });

  it('a minimum not met: one line per miss, the run failed; under merge-reports an error (its only way to fail)', async () => {
    const tests = [testCase(['loads'], [{ status: 'passed', attachments: [json(summarizeCapture(READY))] }])];
    const { end, printed } = await run(tests, { min: { events: 100, actions: 0 } });
    expect(await end).toEqual({ status: 'failed' });
    expect(printed.join('')).toMatch(
      /\nEmbed protocol coverage: events 1\/8 \(12\.5%\) is below the minimum of 100%: never sent: svc:event:view, /,
    );
    const merged = await run(tests, { min: { events: 100 }, _mode: 'merge' });
    await expect(merged.end).rejects.toThrow(/^embed protocol coverage below the minimum:\nevents 1\/8 /);
  });

  it('writes and prints nothing a hostile page or summary sends as markup, control characters or a secret in clear', async () => {
    // A summary as an attachment may hold it (an older fixture, one made by hand): a payload value in clear.
    const SECRET = 'abcdef123456';
    const HOSTILE = `<img src=x onerror=alert(1)>\u001b]0;pwned\u0007\n?session=${SECRET}`;
    const page = capture([
      ...eventPair('svc:event:ready'),
      ...eventPair('svc:event:download', { format: HOSTILE, target: 'widget' }),
      {
        ...eventPair('svc:event:ready')[1],
        data: { ...eventPair('svc:event:ready')[1].data, type: `svc:event:${HOSTILE}` },
      },
    ]);
    const inClear = summarizeCapture(page, { redact: false });
    expect(JSON.stringify(inClear)).toContain(SECRET);
    const { folder, end, printed } = await run([
      testCase(
        [`<script>alert(2)</script> token=${SECRET}`],
        [
          {
            status: 'failed',
            attachments: [
              { name: 'embed-capture.json', contentType: 'application/json', body: Buffer.from(JSON.stringify(page)) },
              json(inClear),
            ],
          },
        ],
      ),
    ]);
    await end;
    const written = [
      readFileSync(join(folder, 'coverage.json'), 'utf8'),
      readFileSync(join(folder, 'index.html'), 'utf8'),
      ...readdirSync(join(folder, 'captures')).map((f) => readFileSync(join(folder, 'captures', f), 'utf8')),
    ];
    for (const text of [...written, printed.join('')]) {
      expect(text).not.toContain(SECRET);
    }
    const c = coverageIn(folder);
    expect(Object.keys(c.types['svc:event:download'].otherValues.format)).toEqual([
      '<img src=x onerror=alert(1)>\u001b]0;pwned\u0007\n?session=[redacted]',
    ]);
    const html = written[1];
    expect(html).not.toMatch(/<(script|img)\b/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;\\u001b]0;pwned\\u0007\\n?session=[redacted]');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt; token=[redacted]');
    // (no control character but the line ends: no escape sequence, no line of the page's)
    expect([...printed.join('')].filter((ch) => ch < ' ' && ch !== '\n')).toEqual([]);
  });

  it('refuses options it does not know, in one line', () => {
    expect(() => new EmbedCoverageReporter({ min: { tests: 1 } as never })).toThrow(
      'embed-inspector reporter: min: unknown key "tests"; one of events, actions, surfaces, values, rules',
    );
    expect(() => new EmbedCoverageReporter({ open: 'always' as never })).toThrow(
      'embed-inspector reporter: open must be "never" or "on-failure" (got "always")',
    );
  });

  it('writes where EMBED_INSPECTOR_REPORT_DIR says, else outputFolder from the config’s folder', () => {
    expect(new EmbedCoverageReporter({ configDir: '/x' }).folder()).toBe('/x/embed-report');
    expect(new EmbedCoverageReporter({ configDir: '/x', outputFolder: 'out/cov' }).folder()).toBe('/x/out/cov');
    process.env.EMBED_INSPECTOR_REPORT_DIR = '/elsewhere';
    expect(new EmbedCoverageReporter({ configDir: '/x', outputFolder: 'out/cov' }).folder()).toBe('/elsewhere');
  });
});
