/**
 * `embed-inspector har CAPTURE --out FILE.har [--no-redact]`: a capture file as a HAR 1.2 file (protocol/har.ts),
 * for HAR viewers and for tools that take HAR: the REST calls are its entries, the window messages
 * `log._embedMessages`. Redacted like the panel's export unless --no-redact. `check` reads the result back.
 */
import { warnUnredacted } from './shown.ts';
import { writeFile } from 'node:fs/promises';
import pkg from '../../package.json' with { type: 'json' };
import { toHar } from '../protocol/har.ts';
import { notAnInput, UsageError } from './args.ts';
import { commandHelp, HAR, parseCommand } from './commands.ts';
import { InputError, loadCapture } from './check.ts';

export const HAR_HELP = commandHelp(HAR);

export async function runHar(
  argv: string[],
  io: { out: (s: string) => void } = { out: (s) => process.stdout.write(s) },
): Promise<number> {
  const { values, positionals } = parseCommand(HAR, argv);
  if (values.help) {
    io.out(`${HAR_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) {
    throw new UsageError('har needs a capture file (see embed-inspector har --help)');
  }
  if (positionals.length > 1) {
    throw new UsageError(`har takes one capture file, got ${positionals.length} (see embed-inspector har --help)`);
  }
  if (!values.out) {
    throw new UsageError('har needs --out FILE.har (see embed-inspector har --help)');
  }
  const [file] = positionals;
  notAnInput(values.out, positionals);
  const capture = await loadCapture(file);
  const redact = !values['no-redact'];
  if (!redact) {
    warnUnredacted('har', values.out, (x) => process.stderr.write(x));
  }
  const har = toHar(capture, { redact, version: pkg.version });
  try {
    await writeFile(values.out, `${JSON.stringify(har, null, 1)}\n`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `${values.out}: cannot write (${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (err as Error).message})`,
    );
  }
  const calls = har.log.entries.length;
  const records = har.log._embedMessages.length;
  io.out(
    `wrote ${values.out}: ${calls} REST call${calls === 1 ? '' : 's'} as entries, ${records} record${records === 1 ? '' : 's'} in _embedMessages${redact ? ', secrets redacted' : ', NOT redacted'}\n`,
  );
  return 0;
}
