/** The `embed-inspector` command line: dispatch, help, and the one-line-error / exit-code contract. */
import { runCheck, CHECK_HELP, InputError } from './check.ts';
import { UsageError } from './args.ts';

const VERSION = '0.1.0';
const HELP = `embed-inspector ${VERSION} — check and record svc-embed window-messaging traffic

Usage:
  embed-inspector check FILE… [--format text|json|junit] [--expect TYPE,…] [--fail-on error|warning]
                             [--allow-empty] [--tenant-origin ORIGIN] [--all]
  embed-inspector check FILE --format mermaid|svg [--out FILE] [options of check]
  embed-inspector record URL --out FILE [--script FLOW.mjs] [--duration MS] [--mode full|receive-only]
                             [--expect TYPE,…] [--fail-on error|warning] [--allow-empty] [--no-redact]
                             [--tenant-origin ORIGIN] [--headful] [--timeline]
  embed-inspector view FILE… [--port N] [--no-open] [--theme light|dark]
  embed-inspector diff A B [--format text|json] [--tenant-origin ORIGIN]
  embed-inspector codegen CAPTURE --playwright|--puppeteer [--assert-payloads] [--out FILE] [--url URL]
  embed-inspector har CAPTURE --out FILE.har [--no-redact]
  embed-inspector --help | --version

Exit status: 0 passed; 1 failed (protocol errors, an expectation unmet, no embed traffic); 2 unusable input,
flags, environment or flow script.
Run "embed-inspector COMMAND --help" for a command's options.`;

type Command = (argv: string[]) => Promise<number>;
const commands: Record<string, () => Promise<Command>> = {
  check: async () => runCheck,
  record: async () => (await import('./record-command.ts')).runRecord,
  view: async () => (await import('./view.ts')).runView,
  diff: async () => (await import('./diff-command.ts')).runDiff,
  codegen: async () => (await import('./codegen.ts')).runCodegen,
  har: async () => (await import('./har-command.ts')).runHar,
};

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (!cmd || cmd === '-h' || cmd === '--help' || cmd === 'help') {
      process.stdout.write(`${HELP}\n`);
      return cmd ? 0 : 2;
    }
    if (cmd === '-v' || cmd === '--version') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const load = commands[cmd];
    if (!load) {
      throw new UsageError(
        `unknown command "${cmd}" (expected one of ${Object.keys(commands).join(', ')}; see --help)`,
      );
    }
    return await (await load())(rest);
  } catch (err) {
    if (err instanceof UsageError || err instanceof InputError) {
      process.stderr.write(`embed-inspector: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`embed-inspector: ${(err as Error)?.message?.split('\n')[0] ?? String(err)}\n`);
    return 2;
  }
}

export { CHECK_HELP };
