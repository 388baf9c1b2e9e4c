// Transparency in Firefox ESR, messaging libraries: the eight libraries' scenarios (test/transparency/pages/lib-*.html,
// host 127.0.0.1 ↔ child localhost, out of process as Firefox ships, with a grandchild and a popup) without the
// extension and with capture on in `full` and `receive-only` mode. What each document observed must be the same,
// except what test/transparency/known-differences.ts lists for Firefox (issues 13 and 31). The suite is
// test/transparency/suites.ts's, the same as Chromium's; see test/transparency/README.md.
import { librariesSuite } from '../transparency/suites.ts';

librariesSuite('firefox');
