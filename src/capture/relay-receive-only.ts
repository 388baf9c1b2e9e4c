/** Isolated-world content script of a frame whose site is captured in receive-only mode: the relay alone. */
import { startRelay } from './relay.ts';

startRelay(false);
