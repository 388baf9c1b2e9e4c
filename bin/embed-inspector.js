#!/usr/bin/env node
// Thin launcher: the command line is built to dist/node/cli.js by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('embed-inspector: not built yet; run `npm run build` in the package first\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
