/**
 * `embed-inspector/playwright/reporter`: a Playwright reporter that adds up the protocol coverage of a suite.
 *
 *   // playwright.config.ts
 *   reporter: [['list'], ['embed-inspector/playwright/reporter', { outputFolder: 'embed-report', min: { events: 100 } }]]
 *
 * The fixture of `embed-inspector/playwright` attaches a coverage summary to every test (coverage-attachment.ts);
 * at the end of the run (`onEnd`) this reporter reads each test's summaries from its results' attachments, adds them
 * up (protocol/coverage.ts) and writes `coverage.json` (the contract: schema/coverage.schema.json), `index.html` (one
 * self-contained page) and, beside them in `captures/`, each test's capture when it has one, then prints a summary.
 * Attachments travel in blob reports: `npx playwright merge-reports --reporter embed-inspector/playwright/reporter
 * ./all-blob-reports` after a sharded run gives the same coverage.json as the suite run at once.
 *
 * Options: `outputFolder` (default `embed-report`, from the config's folder; the environment variable
 * EMBED_INSPECTOR_REPORT_DIR wins, as PLAYWRIGHT_HTML_OUTPUT_DIR does for the HTML reporter), `min` (percentages of
 * `events`, `actions`, `surfaces`, `values`, `rules`: a miss fails the run, one line each, what is missing named),
 * `open` (`never`, the default, or `on-failure`: the page opens in the browser when the run failed).
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import {
  aggregateCoverage,
  failedSummary,
  readCoverageSummary,
  readMinimum,
  redactCoverage,
  withMinimum,
  type Coverage,
  type CoverageSummary,
  type CoverageTestInput,
  type Minimum,
} from '../protocol/coverage.ts';
import { inert } from '../protocol/inert.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { redactCapture, redactString, redactValue } from '../protocol/redact.ts';
import { CAPTURE_ATTACHMENT, COVERAGE_ATTACHMENT } from './coverage-attachment.ts';
import { coverageHtml } from './coverage-html.ts';
import { coverageText } from './coverage-text.ts';

export interface EmbedCoverageReporterOptions {
  /** Where coverage.json, index.html and captures/ go (default `embed-report`, relative to the config's folder). */
  outputFolder?: string;
  /** Minimum coverage in percent (`{ events: 100, actions: 80 }`): a miss fails the run. */
  min?: Minimum;
  /** `on-failure`: open index.html in the browser when the run failed (default `never`). */
  open?: 'never' | 'on-failure';
}

/** What Playwright hands a reporter besides its options (its folder; `merge` under merge-reports). */
interface Given extends EmbedCoverageReporterOptions {
  configDir?: string;
  _mode?: string;
}

/** A file name for a test's capture: readable (from its title, redacted), and unique by a hash of the test's id. */
function captureName(id: string, title: string): string {
  const slug = redactString(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'test'}-${createHash('sha1').update(id).digest('hex').slice(0, 10)}.json`;
}

/**
 * A test's capture as the report holds it: redacted (the fixture's already is; one attached otherwise, by a test's
 * own code or an older fixture, may not be).
 */
function redactedCapture(body: Buffer): string {
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return redactString(text);
  }
  const isCapture = !!json && typeof json === 'object' && Array.isArray((json as CaptureFile).messages);
  return `${JSON.stringify(isCapture ? redactCapture(json as CaptureFile) : redactValue(json), null, 2)}\n`;
}

async function bodyOf(a: TestResult['attachments'][number]): Promise<Buffer | null> {
  if (a.body) {
    return a.body;
  }
  return a.path ? readFile(a.path).catch(() => null) : null;
}

/** A test's summaries (one per run that attached one), an unreadable one said as such. */
async function summariesOf(results: readonly TestResult[]): Promise<CoverageSummary[]> {
  const out: CoverageSummary[] = [];
  for (const r of results) {
    for (const a of r.attachments.filter((x) => x.name === COVERAGE_ATTACHMENT)) {
      const body = await bodyOf(a);
      try {
        out.push(readCoverageSummary(JSON.parse(body?.toString('utf8') ?? 'null')));
      } catch (e) {
        out.push(failedSummary(`unreadable ${COVERAGE_ATTACHMENT}: ${(e as Error).message}`));
      }
    }
  }
  return out;
}

/** A test's id: its project, file and titles (the same in every shard and in the merged report). */
function testIdOf(test: TestCase): { id: string; title: string; file?: string; project?: string } {
  const [, project, ...path] = test.titlePath();
  const repeat = test.repeatEachIndex ? ` (repeat ${test.repeatEachIndex})` : '';
  const title = `${path.join(' › ')}${repeat}`;
  return {
    id: `${project ? `${project} › ` : ''}${title}`,
    title,
    // (the file suite's title: its path from the test folder, the same on every machine)
    ...(path.length > 1 ? { file: path[0] } : {}),
    ...(project ? { project } : {}),
  };
}

function statusOf(test: TestCase): string | undefined {
  const last = test.results.at(-1);
  if (!last) {
    return undefined;
  }
  return test.expectedStatus !== 'passed' && last.status === test.expectedStatus
    ? `${last.status} (expected)`
    : last.status;
}

export default class EmbedCoverageReporter implements Reporter {
  private readonly options: Given;
  private readonly min: Minimum;
  private suite: Suite | undefined;
  private configDir: string | undefined;

  constructor(options: Given = {}) {
    this.options = options;
    try {
      this.min = readMinimum(options.min);
    } catch (e) {
      throw new Error(`embed-inspector reporter: min: ${(e as Error).message}`);
    }
    if (options.open !== undefined && options.open !== 'never' && options.open !== 'on-failure') {
      throw new Error(
        `embed-inspector reporter: open must be "never" or "on-failure" (got ${JSON.stringify(options.open)})`,
      );
    }
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.configDir = config.configFile ? dirname(config.configFile) : undefined;
    this.suite = suite;
  }

  /** The folder the report goes to. */
  folder(): string {
    const base = this.options.configDir ?? this.configDir ?? process.cwd();
    const env = process.env.EMBED_INSPECTOR_REPORT_DIR;
    return env ? resolve(process.cwd(), env) : resolve(base, this.options.outputFolder ?? 'embed-report');
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const folder = this.folder();
    const coverage = await this.write(folder);
    const misses = coverage.minimum?.misses ?? [];
    const index = join(folder, 'index.html');
    const near = relative(process.cwd(), index);
    const shown = near && !near.startsWith('..') ? near : index;
    process.stdout.write(
      `\n${coverageText(coverage, { maxGaps: 10, report: shown })}\n` +
        (coverage.summary.tests.total > 0 && coverage.summary.tests.withData === 0
          ? 'No test attached embed coverage: the tests must use `test` from embed-inspector/playwright.\n'
          : '') +
        misses.map((m) => `Embed protocol coverage: ${inert(m)}\n`).join('') +
        `Embed protocol coverage report: ${inert(shown)}\n`,
    );
    const failed = misses.length > 0 || result.status !== 'passed';
    if (failed && this.options.open === 'on-failure') {
      openInBrowser(index);
    }
    if (misses.length === 0) {
      return undefined;
    }
    if (this.options._mode === 'merge') {
      // merge-reports sets its exit status from reporter errors only, not from onEnd's status.
      throw new Error(`embed protocol coverage below the minimum:\n${misses.join('\n')}`);
    }
    return { status: 'failed' };
  }

  /** Add the tests up and write coverage.json, index.html and the captures. */
  private async write(folder: string): Promise<Coverage> {
    await mkdir(folder, { recursive: true });
    await rm(join(folder, 'captures'), { recursive: true, force: true });
    const inputs: CoverageTestInput[] = [];
    for (const test of this.suite?.allTests() ?? []) {
      const { id, title, file, project } = testIdOf(test);
      let capture: string | null = null;
      const attached = test.results
        .at(-1)
        ?.attachments.find((a) => a.name === CAPTURE_ATTACHMENT && a.contentType === 'application/json');
      const body = attached ? await bodyOf(attached) : null;
      if (body) {
        capture = `captures/${captureName(id, title)}`;
        await mkdir(join(folder, 'captures'), { recursive: true });
        await writeFile(join(folder, capture), redactedCapture(body));
      }
      inputs.push({
        id,
        title,
        file,
        project,
        status: statusOf(test),
        capture,
        summaries: await summariesOf(test.results),
      });
    }
    // Redacted as a whole: the test titles, and whatever an attachment holds (the fixture's summaries already are).
    const coverage = redactCoverage(withMinimum(aggregateCoverage(inputs), this.min));
    await writeFile(join(folder, 'coverage.json'), `${JSON.stringify(coverage, null, 2)}\n`);
    await writeFile(join(folder, 'index.html'), coverageHtml(coverage));
    return coverage;
  }
}

/** Open a file in the user's browser ($BROWSER, else the system's opener); a failure only says where the file is. */
function openInBrowser(file: string): void {
  const [cmd, args] = process.env.BROWSER
    ? [process.env.BROWSER, [file]]
    : process.platform === 'darwin'
      ? ['open', [file]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', file]]
        : ['xdg-open', [file]];
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => process.stdout.write(`Could not open a browser: open ${file}\n`));
    child.unref();
  } catch {
    process.stdout.write(`Could not open a browser: open ${file}\n`);
  }
}
