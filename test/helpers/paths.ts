/** Where the tests find the repository and the built extensions. */
import { join } from 'node:path';

/** The repository's root, with a trailing slash. */
export const ROOT = new URL('../..', import.meta.url).pathname;
/** The built Chromium extension; EI_EXTENSION_DIR points at another build (e.g. an older one, to see a test fail on it). */
export const EXT = process.env.EI_EXTENSION_DIR ?? join(ROOT, 'dist/chrome');
/** The built Firefox extension. */
export const FIREFOX_EXT = join(ROOT, 'dist/firefox');
