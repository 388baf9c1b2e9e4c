// @ts-check
// The Chromium launcher the command line uses (src/node/chromium.ts, built to dist/node/chromium.js by npm run
// build), typed from its source, so that the typecheck needs no build.

/** @type {typeof import('../src/node/chromium.ts')} */
export const { chromiumPath, CHROMIUM_FLAGS, launchChromium } = await import(
  new URL('../dist/node/chromium.js', import.meta.url).href
);
