/**
 * How the integration line reads a state (log/integration.ts): good (green), bad (red), or not a judgement at all.
 * Good is what `embed-inspector check` passes on the same records, bad what it fails
 * (test/unit/panel-agrees-with-check.test.ts): in a capture file, which no record will follow, an embed still
 * "waiting" to say ready never said it, and `check` fails it (ready is expected once an embed frame is seen).
 */
import type { Integration } from '../log/integration.ts';

/**
 * The states the line shows beyond the log's: nothing recorded (capture off), nothing attached, a file or snapshot
 * not judged yet.
 */
export type ShownState = Integration['state'] | 'capture-off' | 'detached' | 'cleared' | 'judging';

const GOOD: ReadonlySet<ShownState> = new Set(['healthy', 'warnings']);
/** States that judge nothing: neither good nor bad. */
const NOT_JUDGED: ReadonlySet<ShownState> = new Set(['waiting', 'capture-off', 'detached', 'cleared', 'judging']);

/** `ended`: no record will follow (a capture file), so nothing is still awaited. */
export function verdictOfState(state: ShownState, ended = false): 'good' | 'bad' | 'none' {
  if (ended && state === 'waiting') {
    return 'bad';
  }
  return GOOD.has(state) ? 'good' : NOT_JUDGED.has(state) ? 'none' : 'bad';
}
