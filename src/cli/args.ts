/** Flag parsing for the command line: node's parseArgs, with one-line errors. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    const m = (err as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, '');
    throw new UsageError(m);
  }
}

export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) {
    return fallback;
  }
  if ((allowed as readonly string[]).includes(value)) {
    return value as T;
  }
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
}

/** An origin flag: `https://host[:port]`, normalised; a one-line error otherwise. */
export function originFlag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`--${flag} must be an origin such as https://acme.example.com (got "${value}")`);
  }
  if (u.origin === 'null') {
    throw new UsageError(`--${flag} must be an http(s) origin (got "${value}")`);
  }
  return u.origin;
}

/**
 * Refuse an output path that names one of the inputs (`-o run.json` beside `run.json`): the capture would be
 * overwritten by what was made of it. Compared as resolved paths, and as the files they are when both exist.
 */
export function notAnInput(out: string, inputs: readonly string[]): void {
  const same = (a: string, b: string) => {
    if (resolve(a) === resolve(b)) {
      return true;
    }
    try {
      const x = statSync(a);
      const y = statSync(b);
      return x.dev === y.dev && x.ino === y.ino;
    } catch {
      return false;
    }
  };
  const input = inputs.find((f) => same(out, f));
  if (input !== undefined) {
    throw new UsageError(`--out ${out} is the input file ${input}: it would be overwritten; write elsewhere`);
  }
}

/**
 * A whole-number flag's value: digits only. `Number` would read "" as 0, "0x10" as 16 and "1e3" as 1000; those are
 * NaN here, so that the caller's check refuses them with its one-line error.
 */
export function wholeNumber(value: string): number {
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}
