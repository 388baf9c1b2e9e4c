/** Isolated-world content script of a frame whose site is captured in full mode: the relay, with its channel. */
import { startRelay } from './relay.ts';

startRelay(true);
