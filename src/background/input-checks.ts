/**
 * What comes into the background, checked before anything changes. A message of another version (a stale
 * content script or panel after an extension update) is dropped by its hop's channel and logged here. What a
 * panel or the automation API asks of a tab is checked here: a wrong value throws a TypeError that says what is
 * expected, and the caller changes nothing (the session rejects the whole request).
 */
import type { PanelToBackground } from '../shared/messages.ts';
import { originOf } from '../protocol/origin.ts';

/** The background's `onDrop` for every hop's channel: a dropped message is logged, never misread. */
export function warnDropped(why: string, raw: unknown): void {
  console.warn(`embed-inspector: ${why}`, raw);
}

export type SetOptions = Extract<PanelToBackground, { type: 'set-options' }>['options'];

/**
 * The options a panel or the automation API may set, checked: booleans are coerced, a bound must be a finite
 * number (the log and the settings clamp it), anything else is refused whole (nothing is changed).
 */
export function checkOptions(o: unknown): SetOptions {
  if (!o || typeof o !== 'object') {
    throw new TypeError('options: an object is expected');
  }
  const given = o as Record<string, unknown>;
  const out: SetOptions = {};
  if (given.preserveLog !== undefined) {
    out.preserveLog = !!given.preserveLog;
  }
  if (given.paused !== undefined) {
    out.paused = !!given.paused;
  }
  for (const key of ['maxRecords', 'maxBytes', 'readyTimeoutMs'] as const) {
    const v = given[key];
    if (v === undefined) {
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError(`options.${key}: a finite number is expected, not ${JSON.stringify(v)}`);
    }
    out[key] = v;
  }
  return out;
}

/** A tenant origin as given by hand: null/'' (back to the inferred one) or an origin (normalized); else throws. */
export function checkTenantOrigin(origin: unknown): string | null {
  if (origin === null || origin === undefined || origin === '') {
    return null;
  }
  const o = typeof origin === 'string' ? originOf(origin.trim()) : null;
  if (!o) {
    throw new TypeError(`not an origin: ${JSON.stringify(origin)} (use https://tenant.example.com)`);
  }
  return o;
}

/** `settle`'s bound (ms): none when absent; otherwise a number, at least 0 (a bound already past asks once). */
export function checkWithin(within: unknown): number | undefined {
  if (within === undefined) {
    return undefined;
  }
  if (typeof within !== 'number' || Number.isNaN(within)) {
    throw new TypeError(`within: a number of milliseconds is expected, not ${JSON.stringify(within)}`);
  }
  return Math.max(0, within);
}
