/** The built command line (bin/embed-inspector.js → dist/node/cli.js), as the end-to-end tests run it. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `embed-inspector …args` in `cwd`, as a child process that runs while this process serves the sandbox (so not
 * spawnSync, which would block it); colours off.
 */
export function cliIn(cwd: string): (...args: string[]) => Promise<CliResult> {
  return (...args) =>
    new Promise<CliResult>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin/embed-inspector.js'), ...args], {
        cwd,
        env: { ...process.env, NO_COLOR: '1' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', (code) => resolve({ code, out, err }));
    });
}
