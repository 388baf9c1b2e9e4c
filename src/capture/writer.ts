/**
 * The one writer of capture records as JSON text (RawRecord, shared/messages.ts). The page builds each record
 * from parts it serialized once (the data's JSON comes from serialize.ts, a frame's URL is serialized once per
 * batch), so records are concatenated rather than stringified whole; every field name goes through `field`,
 * whose key the compiler checks against RawRecord.
 */
import type { RawRecord } from '../shared/messages.ts';

const stringify = JSON.stringify;

/** The fields every record of one kind from one frame shares, written once and reused (`open`). */
export function head(kind: RawRecord['kind'], frameUrl: string): string {
  return `,"kind":"${kind}","frameUrl":${stringify(frameUrl)}`;
}

/** Start a record: its capture time and its shared `head`. */
export function open(time: number, shared: string): string {
  return `{"time":${Number.isFinite(time) ? time : 0}${shared}`;
}

/** One more field: `json` is the JSON text of its value. */
export function field<K extends keyof RawRecord>(key: K, json: string): string {
  return `,"${key}":${json}`;
}

/** A string field. */
export function text<K extends keyof RawRecord>(key: K, value: string): string {
  return `,"${key}":${stringify(value)}`;
}

/** End a record with its data (the JSON text of the encoded message). */
export function close(dataJson: string): string {
  return `,"data":${dataJson}}`;
}
