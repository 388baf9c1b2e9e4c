/** MAIN-world content script, full mode only: the post hook (see page.ts). Receive-only frames get none. */
import { startCapture } from './page.ts';

startCapture();
