// Transparency, messaging libraries: eight widely used cross-origin messaging libraries from npm, each run
// host (127.0.0.1) ↔ child frame (localhost) with a grandchild and a popup (test/transparency/pages/lib-*.html),
// without the extension and with capture on in `full` and `receive-only` mode. What each document observed
// (the library's deliveries, acknowledgements, results, errors and the messages it received) must be the
// same, except what test/transparency/known-differences.ts lists (issue 13). The suite is
// test/transparency/suites.ts's, the same as Firefox's; see test/transparency/README.md.
import { librariesSuite } from '../transparency/suites.ts';

librariesSuite('chromium');
