// Transparency, windows and messaging: what the web-platform-tests check about window access paths,
// postMessage's exceptions, functions read from windows and cross-origin objects (test/transparency/
// window-checks.ts), observed without the extension and with capture on in `full` and `receive-only`
// mode; any difference not listed in test/transparency/known-differences.ts fails (issue 13). The suite is
// test/transparency/suites.ts's, the same as Firefox's; see test/transparency/README.md.
import { windowsSuite } from '../transparency/suites.ts';

windowsSuite('chromium');
