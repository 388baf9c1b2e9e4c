// Transparency in Firefox ESR: the suites of transparency-chromium.test.ts (test/transparency/suites.ts: the window
// checks of pages/win-*.html and the eight libraries' scenarios of pages/lib-*.html), each site in its own process as
// Firefox ships (Fission), sharing this file's server and three browsers (no extension, `full`, `receive-only`). Any
// difference not listed for Firefox in test/transparency/known-differences.ts fails, and so does a Firefox entry no
// longer found (issues 13 and 31); see test/transparency/README.md.
import { librariesSuite, windowsSuite } from '../transparency/suites.ts';

windowsSuite('firefox');
librariesSuite('firefox');
