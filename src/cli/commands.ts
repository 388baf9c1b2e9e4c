/**
 * The command line's commands and their flags: the one table that the parser's options (`parseCommand`), each
 * command's `--help` (`commandHelp`) and the main `--help` (`mainHelp`) are made from. docs/cli.md's flag lists are
 * checked against it (test/unit/docs-cli.test.ts). A new flag is one row in its command's `flags`; a new command
 * is one entry of `COMMANDS` (and its loader in main.ts).
 */
import { DEFAULT_MAX_GAP_MS } from '../protocol/testgen.ts';
import { parse } from './args.ts';

export interface FlagSpec {
  /** `string` takes a value; `boolean` is a switch. */
  type: 'string' | 'boolean';
  /** A one-letter alias (`-o`). */
  short?: string;
  /** The flag may repeat; its values come as a list. */
  multiple?: boolean;
  /** The values it takes, when a fixed set (the parser refuses others with `oneOf`). */
  choices?: readonly string[];
  /** The value's placeholder in help (`FILE`, `MS`); by default the choices joined with `|`. */
  value?: string;
  /** Part of the command's usage line (`record URL --out FILE`), so not repeated in the main help's synopsis. */
  inUsage?: boolean;
  /** What it does, and its default: one paragraph (the help wraps it). */
  help: string;
}

export interface CommandSpec<F extends Record<string, FlagSpec> = Record<string, FlagSpec>> {
  name: string;
  /** What follows the command's name in its usage line, before `[options]`. */
  usage: string;
  /** What the command does: the paragraph under the usage line. */
  about: string;
  /** Its flags, in the order help lists them (`--help` is added to every command). */
  flags: F;
  /** Under the options: environment, when it fails, exit status (paragraphs separated by `\n`). */
  footer: string;
}

const command = <const F extends Record<string, FlagSpec>>(spec: CommandSpec<F>): CommandSpec<F> => spec;

// Flags that several commands share, worded once.
const EXPECT = {
  type: 'string',
  multiple: true,
  value: 'TYPE[,TYPE…]',
  help:
    'fail unless each of these message types is seen (may repeat), e.g. svc:event:dashboard-loaded; ' +
    'svc:event:ready is expected whenever an embed frame (/embed/…) is seen',
} as const;
const FAIL_ON = {
  type: 'string',
  choices: ['error', 'warning'],
  help: 'the lowest finding severity that fails (default: error)',
} as const;
const ALLOW_EMPTY = {
  type: 'boolean',
  help: 'pass a capture with no embed frame and no svc-embed message (default: fail)',
} as const;
const NO_REDACT = {
  type: 'boolean',
  help:
    'keep secrets (session ids, tokens, keys, passwords, cookies) in what it prints or writes, with a warning on ' +
    'stderr (default: redacted)',
} as const;
const TENANT_ORIGIN = {
  type: 'string',
  value: 'ORIGIN',
  help: "the tenant origin (default: the file's, else inferred)",
} as const;

export const CHECK = command({
  name: 'check',
  usage: 'FILE…',
  about:
    'Checks capture files (format v1) against the svc-embed protocol, and their REST calls against the platform ' +
    'API\'s rules (rest.*). A HAR file (ours from "embed-inspector har", or one exported by a browser\'s Network ' +
    "panel or Playwright's recordHar) is read too, told by its content: its entries that are one of the four " +
    "platform operations are checked; another tool's HAR has no window messages.",
  flags: {
    format: {
      type: 'string',
      choices: ['text', 'json', 'junit', 'mermaid', 'svg'],
      help:
        "text, json or junit (default: text); or a diagram of one capture's conversation, lanes for the host " +
        'page and each embed, one arrow per message: mermaid (a sequenceDiagram) or svg (a picture)',
    },
    out: {
      type: 'string',
      short: 'o',
      value: 'FILE',
      help:
        'mermaid, svg: write the diagram to FILE (and say so on stdout) instead of printing it; svg needs it ' +
        'when stdout is a terminal',
    },
    'tenant-origin': TENANT_ORIGIN,
    expect: EXPECT,
    'fail-on': FAIL_ON,
    'allow-empty': ALLOW_EMPTY,
    'ready-timeout': {
      type: 'string',
      value: 'MS',
      help:
        'how long an embed frame has to say ready, a dashboard to load and an AI query to be answered; judged ' +
        "at the capture's end, so what started less than this before it is not judged (default: 10000)",
    },
    all: {
      type: 'boolean',
      help:
        'text: list every message, not only those with findings; mermaid, svg: draw foreign (non svc-embed) ' +
        'messages too',
    },
    'no-redact': NO_REDACT,
  },
  footer:
    'A file fails when it has no embed traffic (unless --allow-empty; a HAR of another tool with REST calls is ' +
    'judged on them alone), when the embed failed to start (a fatal error before ready) or never said ready ' +
    'within --ready-timeout, when an expected message type was never seen, or with a finding (of a message or of ' +
    'a REST call) at or above --fail-on.\n' +
    'Exit status: 0 every file passed, 1 at least one failed, 2 unusable input or flags.',
});

export const RECORD = command({
  name: 'record',
  usage: 'URL --out FILE',
  about:
    'Opens URL in Chromium with the Embed Inspector extension, records the svc-embed traffic of every frame, ' +
    'writes it as a capture file (format v1, secrets redacted) and checks it.',
  flags: {
    out: { type: 'string', short: 'o', value: 'FILE', inUsage: true, help: 'where to write the capture (required)' },
    script: {
      type: 'string',
      value: 'FLOW.mjs',
      help:
        'a module whose default export async ({ page, browser, embed }) => {} drives the page once it loaded ' +
        '(log in, click, export, type in the chat); --duration counts from its end',
    },
    duration: {
      type: 'string',
      value: 'MS',
      help: 'how long to record after the page loaded (or the script ended) (default: 5000)',
    },
    mode: {
      type: 'string',
      choices: ['full', 'receive-only'],
      help: 'the capture mode (default: full; receive-only records deliveries only)',
    },
    expect: EXPECT,
    'fail-on': FAIL_ON,
    'allow-empty': ALLOW_EMPTY,
    'ready-timeout': {
      type: 'string',
      value: 'MS',
      help:
        'how long an embed frame has to say ready (and a dashboard to load); recording goes on up to it while ' +
        'an embed frame is still silent (default: 10000)',
    },
    'tenant-origin': { ...TENANT_ORIGIN, help: 'the tenant origin (default: inferred)' },
    'max-records': {
      type: 'string',
      value: 'N',
      help:
        'keep at most N records, as the panel\'s "Keep at most" (default: 50000, at least 100; past it the ' +
        'least telling records go first, and the summary says how many)',
    },
    'no-redact': NO_REDACT,
    'ignore-https-errors': {
      type: 'boolean',
      help: "accept any TLS certificate, for the page and every frame in it (a staging host's self-signed one)",
    },
    headful: { type: 'boolean', help: 'show the browser window (needs a display)' },
    timeline: { type: 'boolean', help: 'print every captured message with its verdict' },
  },
  footer:
    'Environment: CHROMIUM_PATH (the browser binary), EMBED_INSPECTOR_EXTENSION (the built extension folder).\n' +
    'Exit status: 0 passed, 1 failed (an error-severity issue, an expectation unmet, a fatal error before ready, ' +
    'no embed traffic), 2 unusable URL, flags, browser or script (the capture so far is still written).',
});

export const VIEW = command({
  name: 'view',
  usage: 'FILE…',
  about:
    'Opens capture files in the Embed Inspector panel, without the extension: the built panel is served on ' +
    '127.0.0.1 and opened in the system Chromium, launched as record launches it (or its URL printed when there ' +
    'is no display, or when Chromium does not open). Several files open as one list to switch between. Closing ' +
    'that window or Ctrl+C stops it.',
  flags: {
    port: { type: 'string', value: 'N', help: 'the port to serve on (default: a free one)' },
    'no-open': { type: 'boolean', help: 'only print the URL' },
    theme: { type: 'string', choices: ['light', 'dark'], help: "the panel's theme (default: the browser's)" },
    'no-redact': NO_REDACT,
  },
  footer:
    'Environment: CHROMIUM_PATH (the browser), EMBED_INSPECTOR_EXTENSION (the built extension folder).\n' +
    'Exit status: 0 stopped after the files were shown, 1 stopped with nothing shown to anyone (Chromium did not ' +
    'open and no one opened the URL), 2 unusable files, flags or port.',
});

export const DIFF = command({
  name: 'diff',
  usage: 'A B',
  about:
    'Compares two capture files (format v1): A, the session that passed, and B, the one in question. Says what ' +
    'changed: message types and their counts, findings by rule, the order of the events, payload fields per ' +
    "type, the timing of ready and dashboard-loaded, and the integration's state.",
  flags: {
    format: { type: 'string', choices: ['text', 'json'], help: 'output format (default: text)' },
    'tenant-origin': { ...TENANT_ORIGIN, help: "the tenant origin of both (default: each file's, else inferred)" },
    'no-redact': NO_REDACT,
  },
  footer:
    'Exit status: 0 B has no error finding that A did not have; 1 B has new errors (a rule A did not have, or ' +
    'more findings of one), or fails as a run (no embed traffic, an embed that could not start or never said ' +
    'ready); 2 unusable input or flags.',
});

export const CODEGEN = command({
  name: 'codegen',
  usage: 'CAPTURE (--playwright | --puppeteer)',
  about:
    "Writes a test from a capture file: it opens the recorded page, waits for the embed's ready, sends the " +
    "host's actions in the captured order (pauses capped) and checks that the embed sends the same events in the " +
    'same order, with no protocol error.',
  flags: {
    playwright: {
      type: 'boolean',
      inUsage: true,
      help: 'a Playwright Test spec using embed-inspector/playwright (TypeScript)',
    },
    puppeteer: {
      type: 'boolean',
      inUsage: true,
      help: 'a node script (ESM) using embed-inspector/puppeteer; exits 1 when a check fails',
    },
    'assert-payloads': {
      type: 'boolean',
      help:
        "also check the events' payload fields that do not change from run to run (surface, path, format, " +
        'mode, status…; never ids, times, durations, counts or free text)',
    },
    url: { type: 'string', value: 'URL', help: "the page the test opens (default: the capture's page URL)" },
    'max-gap': {
      type: 'string',
      value: 'MS',
      help: `the longest pause between two actions (default: ${DEFAULT_MAX_GAP_MS})`,
    },
    out: {
      type: 'string',
      short: 'o',
      value: 'FILE',
      help:
        'where to write the test (default: standard output); a directory: the file ' +
        'embed-session-<host>.spec.ts (.mjs for --puppeteer) in it',
    },
    'no-redact': NO_REDACT,
  },
  footer:
    'A page URL parameter that was redacted on export (session=[redacted]) is read by the test from an ' +
    'environment variable (EMBED_SESSION for session); the test says which.\n' +
    'Exit status: 0 written, 2 unusable capture or flags.',
});

export const HAR = command({
  name: 'har',
  usage: 'CAPTURE --out FILE.har',
  about:
    "Writes a capture file (format v1) as a HAR 1.2 file: its REST calls of the platform API are the HAR's " +
    'entries (request, response, timings), its window messages are kept in log._embedMessages and its tenant ' +
    'origin and metadata in log._embedInspector, so that "embed-inspector check FILE.har" gives the same ' +
    'verdicts as the capture. CAPTURE may itself be a HAR.',
  flags: {
    out: { type: 'string', short: 'o', value: 'FILE.har', inUsage: true, help: 'where to write the HAR (required)' },
    'no-redact': NO_REDACT,
  },
  footer: 'Exit status: 0 written, 2 unusable input or flags.',
});

export const COVERAGE = command({
  name: 'coverage',
  usage: 'FILE…',
  about:
    'Adds up the protocol coverage of capture files (format v1) and HARs, each file as one test: which of the ' +
    "catalog's events and actions were seen, on which surfaces, posted and delivered, with which payload values, " +
    'and which rules were put to the test; the gaps first. The same figures as the Playwright reporter ' +
    'embed-inspector/playwright/reporter.',
  flags: {
    format: {
      type: 'string',
      choices: ['text', 'json', 'html'],
      help:
        'text (the summary, the gaps, each type and file), json (the coverage.json contract) or html (one ' +
        'self-contained page) (default: text)',
    },
    out: {
      type: 'string',
      short: 'o',
      value: 'FILE',
      help:
        'write the report to FILE (and say so on stdout) instead of printing it; html needs it when stdout is a ' +
        'terminal',
    },
    min: {
      type: 'string',
      value: 'KEY=PERCENT[,…]',
      help:
        'fail unless the coverage reaches these percentages, e.g. events=100,actions=80 (keys: events, actions, ' +
        'surfaces, values, rules); each miss is one line on stderr naming what is missing',
    },
    'no-redact': NO_REDACT,
  },
  footer: 'Exit status: 0 every minimum met (or none asked for), 1 a minimum missed, 2 unusable input or flags.',
});

/** Every command, in the order the main help lists them. */
export const COMMANDS: readonly CommandSpec[] = [CHECK, RECORD, VIEW, DIFF, CODEGEN, HAR, COVERAGE];

/** The `--help` every command takes. */
const HELP_FLAG: FlagSpec = { type: 'boolean', short: 'h', help: 'this help' };

type Values<F extends Record<string, FlagSpec>> = {
  [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : F[K]['multiple'] extends true ? string[] : string;
} & { help?: boolean };

/** A command's arguments, parsed with the options its table gives (strict: an unknown flag is a UsageError). */
export function parseCommand<F extends Record<string, FlagSpec>>(spec: CommandSpec<F>, argv: string[]) {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, f] of Object.entries({ ...spec.flags, help: HELP_FLAG })) {
    options[name] = { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) };
  }
  const { values, positionals } = parse(argv, options);
  return { values: values as Values<F>, positionals };
}

/** A flag as help and docs/cli.md write it: `--name VALUE` (a switch has no value). */
export function flagLabel(name: string, f: FlagSpec): string {
  const value = f.type === 'string' ? (f.value ?? f.choices?.join('|') ?? 'VALUE') : '';
  return `--${name}${value ? ` ${value}` : ''}`;
}

const WIDTH = 112;

/** Words (or any unbreakable items) in lines of at most `width` characters, joined by spaces. */
function wrapItems(items: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line ? `${line} ${item}` : item;
    if (line && next.length > width) {
      lines.push(line);
      line = item;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines;
}

/** `text` wrapped at word boundaries into lines of at most `width` characters (a paragraph per `\n`). */
export const wrap = (text: string, width: number): string[] =>
  text.split('\n').flatMap((para) => wrapItems(para.split(/ +/), width));

/** A command's `--help`: its usage line, what it does, its options (from its table), then its footer. */
export function commandHelp(spec: CommandSpec): string {
  const rows = [...Object.entries(spec.flags), ['help', HELP_FLAG] as const].map(([name, f]) => ({
    label: `${f.short ? `-${f.short}, ` : ''}${flagLabel(name, f)}`,
    help: f.help,
  }));
  const column = Math.min(30, Math.max(...rows.map((r) => r.label.length)) + 4);
  const pad = ' '.repeat(column);
  const options = rows.map((r) => {
    const text = wrap(r.help, WIDTH - column).join(`\n${pad}`);
    return r.label.length + 2 + 2 > column ? `  ${r.label}\n${pad}${text}` : `  ${r.label.padEnd(column - 2)}${text}`;
  });
  return [
    `Usage: embed-inspector ${spec.name} ${spec.usage} [options]`,
    '',
    ...wrap(spec.about, WIDTH),
    '',
    'Options:',
    ...options,
    '',
    ...wrap(spec.footer, WIDTH),
  ].join('\n');
}

/** The main `--help`: each command's synopsis with every flag of its table. */
export function mainHelp(version: string): string {
  const lines = COMMANDS.map((c) => {
    const head = `  embed-inspector ${c.name} ${c.usage}`;
    const flags = Object.entries(c.flags)
      .filter(([, f]) => !f.inUsage)
      .map(([name, f]) => `[${flagLabel(name, f)}]`);
    // continuation lines start under the first flag, or at column 30 when the usage is long
    const indent = ' '.repeat(Math.min(head.length + 1, 30));
    const [first, ...rest] = wrapItems(flags, WIDTH - head.length - 1);
    const more = rest.length ? wrapItems(rest.join(' ').split(/ (?=\[)/), WIDTH - indent.length) : [];
    return [`${head} ${first}`, ...more.map((l) => indent + l)].join('\n');
  });
  return [
    `embed-inspector ${version} — check and record svc-embed window-messaging traffic`,
    '',
    'Usage:',
    ...lines,
    '  embed-inspector --help | --version',
    '',
    'Exit status: 0 passed; 1 failed (protocol errors, an expectation unmet, no embed traffic); 2 unusable input,',
    'flags, environment or flow script.',
    'Run "embed-inspector COMMAND --help" for a command\'s options.',
  ].join('\n');
}
