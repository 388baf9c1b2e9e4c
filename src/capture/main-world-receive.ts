/** MAIN-world content script, receive-only mode: deliveries only, no hook on any window. See page.ts. */
import { startCapture } from './page.ts';

startCapture('receive-only');
