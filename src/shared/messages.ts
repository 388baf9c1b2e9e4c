/**
 * The internal message maps between the extension's contexts, named by hop. The one place they are declared.
 *
 *   page (MAIN world hook) --PageToRelay--> relay (isolated content script) --RelayToBackground--> background
 *   background --BackgroundToRelay--> relay --RelayToPage--> page
 *   panel --PanelToBackground--> background --BackgroundToPanel--> panel
 *
 * Bump MESSAGES_VERSION on any incompatible change; every hop carries it, and a receiver drops (and logs)
 * messages of another version instead of misreading them (a stale content script after an extension update).
 */
import type { CaptureRecord } from '../protocol/record.ts';
import type { Issue, Verdict } from '../protocol/classify.ts';

export const MESSAGES_VERSION = 1;

/** Runtime port names. */
export const PORT_CAPTURE = 'ei-capture/v1';
export const PORT_PANEL = 'ei-panel/v1';

// ---------------------------------------------------------------- hop 1: page -> relay (same frame)
/** A post observed by the MAIN-world hook, not yet numbered. */
export interface PostObservation {
  time: number;
  targetOrigin: string;
  target: NonNullable<CaptureRecord['target']>;
  targetUrl?: string;
  data: unknown; // encoded
  originalSize?: number;
  transfer?: number;
  /** postMessage threw (bad target origin, uncloneable data): the error it threw. */
  error?: string;
}
export type PageToRelay = { v: typeof MESSAGES_VERSION; type: 'posts'; posts: PostObservation[] };

// ---------------------------------------------------------------- hop 2: relay <-> background
/** A record as the relay sends it: numbered and classified by the background. */
export type RawRecord = Omit<CaptureRecord, 'seq'>;
export type RelayToBackground =
  | { v: typeof MESSAGES_VERSION; type: 'hello'; frameUrl: string; isTop: boolean }
  | { v: typeof MESSAGES_VERSION; type: 'records'; records: RawRecord[] };
export interface CaptureConfig { receiveOnly: boolean; paused: boolean; maxBytes: number }
export type BackgroundToRelay =
  | { v: typeof MESSAGES_VERSION; type: 'config'; config: CaptureConfig }
  /** Post a message from this frame (inject an action from the top frame, simulate an event from the embed). */
  | { v: typeof MESSAGES_VERSION; type: 'post'; id: string; target: 'child' | 'parent'; childUrl?: string; data: unknown; targetOrigin: string };
export type RelayToPage = { v: typeof MESSAGES_VERSION; type: 'config'; config: CaptureConfig };

// ---------------------------------------------------------------- hop 3: panel <-> background
export interface ClassifiedRecord extends CaptureRecord {
  verdict: Verdict;
  issues: Issue[];
}
export interface TabState {
  tabId: number;
  tenantOrigin: string | null;
  /** 'manual' when set by hand; otherwise how it was inferred. */
  tenantOriginSource: 'manual' | 'embed-frame' | 'ready' | null;
  preserveLog: boolean;
  receiveOnly: boolean;
  paused: boolean;
  /** Records discarded by the buffer bound since the log started. */
  dropped: number;
  /** Foreign (non svc-embed) records held / discarded. */
  foreignCount: number;
  maxRecords: number;
  pageUrl: string | null;
}
export type PanelToBackground =
  | { v: typeof MESSAGES_VERSION; type: 'subscribe'; tabId: number }
  | { v: typeof MESSAGES_VERSION; type: 'clear'; tabId: number }
  | { v: typeof MESSAGES_VERSION; type: 'set-tenant-origin'; tabId: number; origin: string | null }
  | { v: typeof MESSAGES_VERSION; type: 'set-options'; tabId: number; options: Partial<Pick<TabState, 'preserveLog' | 'receiveOnly' | 'paused' | 'maxRecords'>> }
  | { v: typeof MESSAGES_VERSION; type: 'send'; tabId: number; id: string; from: 'host' | 'embed'; frameUrl?: string; data: unknown; targetOrigin: string };
export type BackgroundToPanel =
  | { v: typeof MESSAGES_VERSION; type: 'snapshot'; state: TabState; records: ClassifiedRecord[] }
  | { v: typeof MESSAGES_VERSION; type: 'records'; records: ClassifiedRecord[] }
  | { v: typeof MESSAGES_VERSION; type: 'state'; state: TabState }
  | { v: typeof MESSAGES_VERSION; type: 'send-result'; id: string; ok: boolean; error?: string };
