import { join } from 'node:path';

// The diagnostics' command line: `--name value` options, taken out of the arguments as they are read, so that what
// is left (`rest`) is the positional arguments (build directories).
export function commandLine(argv = process.argv.slice(2)) {
  const args = [...argv];
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) {
      return dflt;
    }
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  return { opt, rest: () => args };
}

/**
 * The burst diagnostics' options: `--dir h2e|e2h`, `--n`, `--size`, `--reps` (defaults as given), and the build
 * directories left on the command line (dist/chrome when none).
 */
export function burstCommandLine({ n = 5000, reps = 5 } = {}, argv = process.argv.slice(2)) {
  const { opt, rest } = commandLine(argv);
  const options = {
    dir: opt('dir', 'h2e'),
    n: Number(opt('n', n)),
    size: Number(opt('size', 200)),
    reps: Number(opt('reps', reps)),
  };
  const builds = rest().length ? rest() : [join(new URL('../..', import.meta.url).pathname, 'dist/chrome')];
  return { ...options, builds };
}
