/**
 * Where each option a panel or the automation API sets goes, once checked (input-checks.ts: a wrong value is
 * refused before anything changes): preserve log, pause and the buffer bound are the tab's log's; the size cap and
 * the ready limit are extension-wide (the registry, sessions.ts, stores them and tells every tab).
 */
import type { SetOptions } from './input-checks.ts';
import type { TabLog } from './tablog.ts';

/** The extension-wide settings, as the registry sets them. */
export interface ExtensionSettings {
  setMaxBytes(maxBytes: number): Promise<void>;
  setReadyTimeout(ms: number): Promise<void>;
}

/** Apply checked options, each to its owner; an option not given is left as it is. Returns the seqs evicted. */
export async function applyOptions(
  log: Pick<TabLog, 'setPreserveLog' | 'setPaused' | 'setMaxRecords'>,
  settings: ExtensionSettings,
  o: SetOptions,
): Promise<number[]> {
  if (o.preserveLog !== undefined) {
    log.setPreserveLog(o.preserveLog);
  }
  if (o.paused !== undefined) {
    log.setPaused(o.paused);
  }
  const removed = o.maxRecords !== undefined ? log.setMaxRecords(o.maxRecords) : [];
  if (o.maxBytes !== undefined) {
    await settings.setMaxBytes(o.maxBytes);
  }
  if (o.readyTimeoutMs !== undefined) {
    await settings.setReadyTimeout(o.readyTimeoutMs);
  }
  return removed;
}
