// Transparency in Firefox ESR, windows and messaging: the window-check table (test/transparency/window-checks.ts)
// evaluated in the frames of pages/win-*.html without the extension and with capture on in `full` and
// `receive-only` mode, each site in its own process as Firefox ships (Fission); any difference not listed for
// Firefox in test/transparency/known-differences.ts fails, and so does a Firefox entry no longer found (issues 13
// and 31). The suite is test/transparency/suites.ts's, the same as Chromium's; see test/transparency/README.md.
import { windowsSuite } from '../transparency/suites.ts';

windowsSuite('firefox');
