/** MAIN-world content script, full mode: posts (with their target origin) and deliveries. See page.ts. */
import { startCapture } from './page.ts';

startCapture('full');
