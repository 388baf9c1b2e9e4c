// Transparency in Chromium: what the page observes is the same without the extension and with capture on in `full`
// and `receive-only` mode, except what test/transparency/known-differences.ts lists (issue 13). Two suites of
// test/transparency/suites.ts, sharing this file's server and three browsers (one per mode):
// - windows and messaging: what the web-platform-tests check about window access paths, postMessage's exceptions,
//   functions read from windows and cross-origin objects (test/transparency/window-checks.ts);
// - messaging libraries: eight widely used cross-origin messaging libraries from npm, each run host (127.0.0.1) ↔
//   child frame (localhost) with a grandchild and a popup (test/transparency/pages/lib-*.html): the deliveries,
//   acknowledgements, results, errors and messages each document observed.
// The same suites run in Firefox (transparency-firefox.test.ts); see test/transparency/README.md.
import { librariesSuite, windowsSuite } from '../transparency/suites.ts';

windowsSuite('chromium');
librariesSuite('chromium');
