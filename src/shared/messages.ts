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

export const MESSAGES_VERSION = 9;

/** Runtime port names. */
export const PORT_CAPTURE = 'ei-capture/v1';
export const PORT_PANEL = 'ei-panel/v1';

/**
 * The two worlds of one full-mode frame (the MAIN-world hook, page.ts, and the isolated relay, relay.ts) talk over a
 * private channel: a detached Text node that only they hold (the page never gets a reference to it: it is in no
 * document, and the MAIN world reaches it only through functions it kept at document_start). Every message between
 * them is an event dispatched on that node, so no other script of the page, and no other frame, can hear or speak on
 * it. The node is handed over once, at document_start, before any page script runs: the MAIN world asks on
 * `document` (CHANNEL_HELLO, a CustomEvent without detail) and the relay answers with a FocusEvent CHANNEL_NODE whose
 * `relatedTarget` is the node (nodes cross worlds; details may not), or the relay offers it the same way as it
 * starts, whichever of the two scripts runs second. Both stop listening on `document` as soon as the node is handed
 * over. A receive-only frame's relay has no such channel: it neither listens for nor dispatches any event in the
 * page's world. Details are strings only (object details do not cross worlds reliably: Firefox X-rays).
 */
const NAME = `embed-inspector:v${MESSAGES_VERSION}:`;
/** On `document`, at document_start only: the MAIN world asks for the node; the relay answers or offers it. */
export const CHANNEL_HELLO = `${NAME}hello`;
export const CHANNEL_NODE = `${NAME}node`;
/** On the node, page -> relay: the frame's posts (full mode), each with the deliveries seen before it. */
export const CHANNEL_PAGE_RECORDS = `${NAME}records`;
/** On the node, relay -> page: RelayToPage. */
export const CHANNEL_RELAY_TO_PAGE = `${NAME}config`;
/**
 * On the node: the frame's delivery counter. The node's text is the number of deliveries the relay has recorded
 * (deliveries.ts). The page asks (CHANNEL_COUNTER_ASK, no detail) at the first post of each task; the relay writes the
 * node as it answers, synchronously. Deliveries the page constructs itself (dispatched in the middle of a task) update
 * it at once; the browser's own deliveries, each a task of its own, need not: the next posting task asks. The page
 * reads the node at the first post of each task, and again after the relay says it changed within the task
 * (CHANNEL_COUNTER_CHANGED, dispatched with such a delivery before any page listener runs) (relay-merge.ts).
 */
export const CHANNEL_COUNTER_ASK = `${NAME}counter?`;
export const CHANNEL_COUNTER_CHANGED = `${NAME}counter!`;
/**
 * On the node, page -> relay, no detail: the page posted in a listener of the browser's own `pagehide` or `unload`
 * (the frame is going away, and the relay's `pagehide` listener, if it had one, has run): the relay hands everything
 * over now, the MAIN world's posts asked for first.
 */
export const CHANNEL_LEAVING = `${NAME}leaving`;
/**
 * On the node, page -> relay, no detail: the page called `open()` on the frame's document, which erases every listener
 * of its window and document: the relay adds its own again (capture/rewrite.ts).
 */
export const CHANNEL_REWRITTEN = `${NAME}rewritten`;
/**
 * On the node, Firefox, full mode: the MAIN world offers the relay a reader of deliveries (deliveries.ts), as it
 * starts, before any page script (a CustomEvent whose `detail` is the function).
 */
export const CHANNEL_READER = `${NAME}reader`;

/** Where a window sits relative to the frame that holds it (post target, or receive source). */
export type WindowRelation = 'parent' | 'child' | 'self' | 'opener' | 'other';

// ---------------------------------------------------------------- hop 1: page -> relay (same frame)
/**
 * A record as the capture scripts produce it, before the background numbers and classifies it.
 * `from` (receive only) is where the message came from as seen by the receiving frame; it helps pairing.
 */
export type RawRecord = Omit<CaptureRecord, 'seq'> & {
  from?: WindowRelation;
  /** post only: postMessage threw (bad target origin, uncloneable data): the error, `Name: message`. */
  error?: string;
};
/**
 * What the MAIN world says of one post: the facts only it can see (the call's time, target, target origin, data).
 * Where the post was made (`kind`, `frameUrl`, `origin`) is never its word: the relay and the background set it, and
 * the background keeps only these fields, each of its type (background/batch.ts).
 */
export type PagePostFacts = Pick<
  RawRecord,
  'time' | 'targetOrigin' | 'target' | 'targetUrl' | 'originalSize' | 'transfer' | 'error' | 'data'
>;
/**
 * page -> relay (full mode): a CustomEvent CHANNEL_PAGE_RECORDS dispatched on the private node, `detail` a string:
 * the frame's posts in the order it made them, one per line, each `<deliveries the frame had seen>\t<PagePostFacts
 * JSON>` (capture/relay-merge.ts). The relay reads only the number, to put each post among the deliveries it recorded
 * itself, and hands the rest to the background as it came, apart from its own text (`lines` of a batch).
 *
 * relay -> page (full mode only): CustomEvent CHANNEL_RELAY_TO_PAGE on the private node, `detail` = JSON of this.
 * 'flush': hand over every held post now, synchronously (the relay is about to hand the frame's records over, or
 * the page is going away).
 */
export type RelayToPage =
  | { v: typeof MESSAGES_VERSION; type: 'config'; config: CaptureConfig }
  /**
   * Hand over the posts written. `write`: the current task's too, written now rather than at its end (the frame's
   * address is about to change within the task: relay.ts).
   */
  | { v: typeof MESSAGES_VERSION; type: 'flush'; write?: true };

/**
 * An entry of a relay's batch that stands for the batch's next line (`lines`): a post the MAIN world recorded, made
 * in the frame at `frameUrl` (the relay's word, as of the hand-over).
 */
export interface PagePostEntry {
  kind: 'post';
  frameUrl: string;
  line: true;
}

// ---------------------------------------------------------------- hop 2: relay <-> background (Port PORT_CAPTURE)
export type RelayToBackground =
  /**
   * First message on every (re)connection. `docId` is random per document, stable across reconnections. `start`,
   * on the document's first hello only: when its relay started (`document_start`, before any script of the
   * document), in the frame's clock (background/frame-navs.ts places the frame's navigation record by it).
   */
  | {
      v: typeof MESSAGES_VERSION;
      type: 'hello';
      docId: string;
      frameUrl: string;
      isTop: boolean;
      time: number;
      start?: number;
      /** The relay holds this document's 'spill-key' already (absent: it does not). */
      sealed?: true;
    }
  /**
   * A batch: `json` is the JSON array of the relay's entries: the RawRecords it wrote itself (deliveries, posts it
   * injected) and, for each post the MAIN world recorded, a PagePostEntry that stands for the next of `lines` (that
   * post's facts as the page's world wrote them, never spliced into `json`). `batch` counts up per document; the
   * relay keeps the batch until it is acknowledged (after the background stored it) and resends it after a
   * reconnection; the background ignores batches it already stored.
   */
  | {
      v: typeof MESSAGES_VERSION;
      type: 'records';
      docId: string;
      batch: number;
      json: string;
      lines?: string[];
    }
  /** Result of a BackgroundToRelay 'post'. */
  | { v: typeof MESSAGES_VERSION; type: 'post-result'; id: string; ok: boolean; error?: string }
  /**
   * Answer to a BackgroundToRelay 'flush', sent on the same port right after the batches that hand-over made, so
   * the background has them in hand when it reads this.
   */
  | { v: typeof MESSAGES_VERSION; type: 'flushed'; id: string }
  /**
   * A burst of messages the frame received ended (it went quiet holding much; not an ask), and it is handing them
   * over: the frames that posted them may hand theirs over now rather than wait out their own, longer, quiet period.
   */
  | { v: typeof MESSAGES_VERSION; type: 'received' };
/**
 * A relay's reply to what the background sent it by `tabs.sendMessage` (its port was closed: the worker stopped while
 * the page was quiet): a post's result; to a 'flush', that the frame hands over now, its batches and its 'flushed'
 * following on the port that hand-over opens.
 */
export type RelayReply =
  | Extract<RelayToBackground, { type: 'post-result' }>
  | { v: typeof MESSAGES_VERSION; type: 'flushing'; id: string };
export interface CaptureConfig {
  /** The frame's site is captured in receive-only mode, or not at all: a full-mode hook still installed removes itself. */
  receiveOnly: boolean;
  /** Nothing is recorded: the tab is paused, or the frame's origin is not (or no longer) in the capture scope. */
  paused: boolean;
  /** Size cap of one message's encoded data, bytes. */
  maxBytes: number;
}
export type BackgroundToRelay =
  | { v: typeof MESSAGES_VERSION; type: 'config'; config: CaptureConfig }
  /** Batches up to this number (inclusive) are stored. */
  | { v: typeof MESSAGES_VERSION; type: 'ack'; batch: number }
  /**
   * Hand over every record the frame holds now (its outbox and the MAIN world's posts), send the batches, then
   * answer 'flushed' (the automation API's `settle`: a test reads what the page did so far, not a guess of when
   * the frame's quiet period ends).
   */
  | { v: typeof MESSAGES_VERSION; type: 'flush'; id: string }
  /**
   * Another frame of the tab went quiet after what it received ('received'): hand over what this frame holds now,
   * in slices as its own timer would (no answer).
   */
  | { v: typeof MESSAGES_VERSION; type: 'hand-over' }
  /**
   * Post a message from this frame (inject an action from the top frame, simulate an event from the embed).
   * `data` is encoded (encoding.ts); `childUrl` picks the child frame (by URL, then by origin) for 'child'.
   */
  | {
      v: typeof MESSAGES_VERSION;
      type: 'post';
      id: string;
      target: 'child' | 'parent';
      childUrl?: string;
      data: unknown;
      targetOrigin: string;
    }
  /**
   * This document's key for what it writes to the extension's storage as it goes (SpilledBatches), sent once its
   * hello is heard: the frame's tab, frame, origin and docId as the browser gave them to the background, sealed by
   * the background (background/spill.ts). The relay only keeps it and writes it back; it never reaches the page.
   */
  | { v: typeof MESSAGES_VERSION; type: 'spill-key'; key: string };

/** Keys of `storage.local` under which a frame going away left the batches it could not send (`spillKeyOf`). */
export const SPILL_PREFIX = 'ei-spill/';
/**
 * What a relay writes to `storage.local` (key `spillKeyOf`) as its frame goes while its port has not been
 * answered: the worker stopped, and Chromium drops a port whose frame is gone before the worker answered. The
 * background reads it when it starts (or hears the write) and accepts its batches as the port's would have been:
 * where they come from is what `key` says (the background's seal on what the browser told it), never this value's.
 */
export interface SpilledBatches {
  v: typeof MESSAGES_VERSION;
  type: 'spill';
  key: string;
  docId: string;
  batches: Array<{ batch: number; json: string; lines?: string[] }>;
}
/** The storage key of a spill: its document and its batches' numbers (each write its own; the same batches, one). */
export function spillKeyOf({ docId, batches }: Pick<SpilledBatches, 'docId' | 'batches'>): string {
  return `${SPILL_PREFIX}${docId}/${batches[0]?.batch}-${batches[batches.length - 1]?.batch}`;
}

// ---------------------------------------------------------------- hop 3: panel <-> background
export interface ClassifiedRecord extends CaptureRecord {
  verdict: Verdict;
  issues: Issue[];
  /** receive only: where the message came from, as the receiving frame saw it. */
  from?: WindowRelation;
  /** post only: postMessage threw; the error (`Name: message`). The message was not sent. */
  error?: string;
}
/** How many records a tab's log keeps unless the user sets another bound (the background and the panel alike). */
export const DEFAULT_MAX_RECORDS = 50_000;

/** What `settle` found: the frames asked to hand over, and those that sent nothing for SETTLE_TIMEOUT_MS (busy). */
export interface SettleResult {
  frames: number;
  silent: number;
}

/**
 * Records let go by the log's bound, by kind (background/eviction.ts): foreign traffic, valid repeats of a type
 * already seen from the same frame, records with an error or a warning (or a session's ready) past their reserve,
 * and every other record.
 */
export interface DroppedByKind {
  foreign: number;
  repeats: number;
  other: number;
  issues: number;
}
export interface TabState {
  tabId: number;
  tenantOrigin: string | null;
  /**
   * 'manual' when set by hand, 'file' when an imported capture file names it; 'embed-frame' when inferred from the
   * embed's own frame (protocol/tenant.ts).
   */
  tenantOriginSource: 'manual' | 'file' | 'embed-frame' | null;
  /** Inferred: the address of the embed frame it came from. */
  tenantOriginFrame?: string;
  preserveLog: boolean;
  paused: boolean;
  /** Records discarded by the buffer bound since the log started. */
  dropped: number;
  /** Foreign (non svc-embed) records held. */
  foreignCount: number;
  /** `dropped` by kind of record. */
  droppedBy?: DroppedByKind;
  /**
   * First seq of the current page's records (0: the whole log). With preserve log, the log goes on across
   * top-level navigations, but the inferred tenant origin is the current page's: re-inferred from its embed
   * frames, it re-classifies the records from here on.
   */
  pageStartSeq?: number;
  /** Records captured since the log started (held + dropped). */
  total?: number;
  /**
   * Set by Clear when an embed session of the page had reported `ready` before it (the records are gone, the
   * session goes on): the panel says so instead of "ready: not seen". A new page or log unsets it.
   */
  readyBeforeClear?: boolean;
  maxRecords: number;
  /** Size cap of one captured message, in bytes of encoded data (a setting of the whole extension). */
  maxBytes?: number;
  /** How long an embed has to say ready (a dashboard to load, an AI query its answer), ms; extension-wide. */
  readyTimeoutMs?: number;
  pageUrl: string | null;
}

/** A tab's state before anything happened in it (the background's log and the panel's copy start here). */
export function newTabState(tabId: number, over: Partial<TabState> = {}): TabState {
  return {
    tabId,
    tenantOrigin: null,
    tenantOriginSource: null,
    preserveLog: false,
    paused: false,
    dropped: 0,
    foreignCount: 0,
    droppedBy: { foreign: 0, repeats: 0, other: 0, issues: 0 },
    total: 0,
    maxRecords: DEFAULT_MAX_RECORDS,
    pageUrl: null,
    ...over,
  };
}

// ---------------------------------------------------------------- capture scope (background/scope.ts writes it)
/** `full`: posts (with target origin), dropped and thrown posts, deliveries. `receive-only`: deliveries only, no hook. */
export type CaptureMode = 'full' | 'receive-only';
/** The capture scope: the sites (origins) captured, each with its mode, and the "every site" switch. */
export interface CaptureScopeView {
  /** Capture every site in this mode (a listed site keeps its own mode); null: only the listed sites. */
  all: CaptureMode | null;
  sites: Array<{ origin: string; mode: CaptureMode }>;
}
/** One origin of the inspected tab (its page, or frames of it) and the mode it is captured in, null when not. */
export interface TabSite {
  origin: string;
  top: boolean;
  mode: CaptureMode | null;
}
/** A change of the scope asked for by the panel. */
export type ScopeChange =
  | { op: 'add'; sites: string[]; mode: CaptureMode }
  | { op: 'remove'; sites: string[] }
  | { op: 'mode'; sites: string[]; mode: CaptureMode }
  | { op: 'all'; mode: CaptureMode | null };

export type PanelToBackground =
  | { v: typeof MESSAGES_VERSION; type: 'subscribe'; tabId: number }
  | { v: typeof MESSAGES_VERSION; type: 'clear'; tabId: number }
  | { v: typeof MESSAGES_VERSION; type: 'set-tenant-origin'; tabId: number; origin: string | null }
  | {
      v: typeof MESSAGES_VERSION;
      type: 'set-options';
      tabId: number;
      options: Partial<Pick<TabState, 'preserveLog' | 'paused' | 'maxRecords' | 'maxBytes' | 'readyTimeoutMs'>>;
    }
  /** Change the scope; answered by `capture-result` once the scripts are registered; `reload`: then reload the tab. */
  | {
      v: typeof MESSAGES_VERSION;
      type: 'set-capture';
      tabId: number;
      id: string;
      change: ScopeChange;
      reload?: boolean;
    }
  | { v: typeof MESSAGES_VERSION; type: 'reload'; tabId: number }
  /** `data` is in the capture encoding (encoding.ts): the port carries JSON only. */
  | {
      v: typeof MESSAGES_VERSION;
      type: 'send';
      tabId: number;
      id: string;
      from: 'host' | 'embed';
      frameUrl?: string;
      data: unknown;
      targetOrigin: string;
    };
export type BackgroundToPanel =
  /**
   * The worker heard this port's `subscribe` (sent as it reads it, before the tab's log is read): the port reaches a
   * running worker. The panel's transport reads it (its handshake); the snapshot follows.
   */
  | { v: typeof MESSAGES_VERSION; type: 'subscribed'; tabId: number }
  | { v: typeof MESSAGES_VERSION; type: 'snapshot'; state: TabState; records: ClassifiedRecord[] }
  /** New records, in seq order. */
  | { v: typeof MESSAGES_VERSION; type: 'records'; records: ClassifiedRecord[] }
  /** Records already sent, changed (paired, marked dropped, re-classified): replace them by seq. */
  | { v: typeof MESSAGES_VERSION; type: 'update'; records: ClassifiedRecord[] }
  /**
   * Records that came late were placed by capture time: every record from `fromSeq` on, in seq order (renumbered
   * and checked again), replaces the records held from that seq on.
   */
  | { v: typeof MESSAGES_VERSION; type: 'reorder'; fromSeq: number; records: ClassifiedRecord[] }
  /**
   * Records the log's bound let go (not always the oldest: background/eviction.ts). The panel drops them when it
   * trims its own copy.
   */
  | { v: typeof MESSAGES_VERSION; type: 'removed'; seqs: number[] }
  | { v: typeof MESSAGES_VERSION; type: 'state'; state: TabState }
  | { v: typeof MESSAGES_VERSION; type: 'send-result'; id: string; ok: boolean; error?: string }
  /** The scope and the inspected tab's sites: after the snapshot, on a scope change, on the tab's navigations. */
  | { v: typeof MESSAGES_VERSION; type: 'capture'; scope: CaptureScopeView; sites: TabSite[] }
  | { v: typeof MESSAGES_VERSION; type: 'capture-result'; id: string; ok: boolean; error?: string };
