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
