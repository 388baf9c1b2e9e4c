/** The `embed-inspector` command line: dispatch, help, and the one-line-error / exit-code contract. */
import pkg from '../../package.json' with { type: 'json' };
import { runCheck, CHECK_HELP, InputError } from './check.ts';
import { UsageError } from './args.ts';
import { COMMANDS, mainHelp } from './commands.ts';
import { inert } from '../protocol/inert.ts';

// The package's own version, read at build time (vite inlines the JSON).
const VERSION = pkg.version;
const HELP = mainHelp(VERSION);

type Command = (argv: string[]) => Promise<number>;
/** How each command of the table (commands.ts) runs: loaded when used, so that `check` loads no browser driver. */
const RUNNERS: Record<string, () => Promise<Command>> = {
  check: async () => runCheck,
  record: async () => (await import('./record-command.ts')).runRecord,
  view: async () => (await import('./view.ts')).runView,
  diff: async () => (await import('./diff-command.ts')).runDiff,
  codegen: async () => (await import('./codegen.ts')).runCodegen,
  har: async () => (await import('./har-command.ts')).runHar,
  coverage: async () => (await import('./coverage-command.ts')).runCoverage,
};
const commands = Object.fromEntries(COMMANDS.map((c) => [c.name, RUNNERS[c.name]]));

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
    // One line, inert: a message may quote a stranger's file or name (terminal escapes, line breaks).
    if (err instanceof UsageError || err instanceof InputError) {
      process.stderr.write(`embed-inspector: ${inert(err.message)}\n`);
      return 2;
    }
    process.stderr.write(`embed-inspector: ${inert((err as Error)?.message?.split('\n')[0] ?? String(err))}\n`);
    return 2;
  }
}

export { CHECK_HELP };
