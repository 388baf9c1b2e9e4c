/**
 * Which rules a capture put to the test (coverage.ts): a rule is *checked* on a subject (one message — a post and its
 * delivery are one —, one embed frame's address, one REST call, or the whole capture) when the checker that owns it
 * (classify.ts, session.ts, diagnose.ts, address.ts, rest.ts) looked at that subject for it, whether it fired or
 * not. Whether it fired is never decided here: that comes from checkCapture's issues. This module only says where
 * each rule could have fired, from the catalog and the facts the checkers read; `RULE_APPLIES` has one entry per rule
 * of RULE_LIST (a unit test fails on a rule without one). Pure.
 */
import type { MessageSpec } from './catalog.ts';
import { embedKind } from './address.ts';
import { REST_OPERATIONS, type RestResult } from './rest.ts';

/** What the checkers read of one message (its post and its delivery together). */
export interface MessageFacts {
  /** The envelope's `type` when a string. */
  type: string | null;
  /** The catalog's entry for it. */
  spec: MessageSpec | undefined;
  /** Judged as an event (by the catalog, else by the envelope's `direction`). */
  isEvent: boolean;
  isAction: boolean;
  /** The envelope's `direction`, as sent. */
  direction: unknown;
  /** A post of it was seen, and whether the browser dropped it. */
  posted: boolean;
  dropped: boolean;
  /** Over the size cap: the payload is gone. */
  truncated: boolean;
  /** The payload, when an object. */
  payload: Record<string, unknown> | null;
  tenantKnown: boolean;
  /** The capture has a `dashboard-loaded`, an `ai-query` answer: the silence rules could be judged. */
  anyLoaded: boolean;
  anyAnswer: boolean;
}

/** An embed frame whose address the capture holds (its navigation record). */
export interface FrameFacts {
  url: string;
  tenantKnown: boolean;
  /** It said ready (so `silence.never-ready` was judged and passed), or the rule fired on it. */
  ready: boolean;
}

export type Applies =
  | { on: 'message'; when: (m: MessageFacts) => boolean }
  | { on: 'frame'; when: (f: FrameFacts) => boolean }
  | { on: 'rest'; when: (r: RestResult & { status: number }) => boolean }
  /** The whole capture: judged once, when a ready was seen and actions could be (`silence.host-never-acted`). */
  | { on: 'capture' };

const msg = (when: (m: MessageFacts) => boolean): Applies => ({ on: 'message', when });
const frame = (when: (f: FrameFacts) => boolean): Applies => ({ on: 'frame', when });
const rest = (when: (r: RestResult & { status: number }) => boolean): Applies => ({ on: 'rest', when });

const fields = (m: MessageFacts) => Object.values(m.spec?.fields ?? {});
/** A catalogued message whose payload the checks read (an object, not cut by the size cap). */
const read = (m: MessageFacts) => !!m.spec && !m.truncated && m.payload !== null;
const named = (m: MessageFacts, type: string) => m.type === type && read(m);
const params = (url: string): URLSearchParams => {
  try {
    return new URL(url).searchParams;
  } catch {
    return new URLSearchParams();
  }
};
const takesBody = (r: RestResult) => !!REST_OPERATIONS.find((o) => o.id === r.operation)?.body;
const always = () => true;

/** Where each rule is checked; keyed by rule id (RULE_LIST). */
export const RULE_APPLIES: Readonly<Record<string, Applies>> = {
  'envelope.direction': msg(always),
  'envelope.type': msg(always),
  'envelope.type-direction': msg((m) => m.type !== null && (m.direction === 'event' || m.direction === 'action')),
  'envelope.truncated': msg((m) => m.truncated),
  'envelope.payload': msg((m) => !m.truncated),
  'envelope.timestamp': msg(always),
  'envelope.timestamp-epoch': msg(always),
  'envelope.surface-missing': msg((m) => m.isEvent),
  'envelope.surface': msg((m) => m.isEvent),
  'envelope.surface-on-action': msg((m) => m.isAction),
  'envelope.unknown-field': msg((m) => !m.truncated),
  'payload.required': msg((m) => read(m) && fields(m).some((f) => f.required)),
  'payload.type': msg((m) => read(m) && fields(m).length > 0),
  'payload.enum': msg((m) => read(m) && fields(m).some((f) => !!f.enum)),
  'payload.null': msg((m) => read(m) && fields(m).some((f) => !f.required && !f.nullable)),
  'payload.unknown-field': msg((m) => read(m) && !m.spec?.open && !m.spec?.empty),
  'surface.payload-mismatch': msg((m) => named(m, 'svc:event:ready') || named(m, 'svc:event:view')),
  'surface.not-allowed': msg((m) => read(m) && m.isEvent && (m.spec?.surfaces?.length ?? 3) < 3),
  'download.widget-id': msg((m) => named(m, 'svc:event:download')),
  'download.row-count': msg((m) => named(m, 'svc:event:download')),
  'action.timezone': msg((m) => named(m, 'svc:action:set-timezone')),
  'action.timezone-unknown': msg((m) => named(m, 'svc:action:set-timezone')),
  'action.filter': msg((m) => named(m, 'svc:action:set-filter')),
  'action.locale': msg((m) => named(m, 'svc:action:set-locale')),
  'action.refresh-payload': msg((m) => named(m, 'svc:action:refresh')),
  'origin.event': msg((m) => m.tenantKnown && m.direction === 'event'),
  'origin.action-wildcard': msg((m) => m.tenantKnown && m.direction === 'action' && m.posted),
  'origin.action-target': msg((m) => m.tenantKnown && m.direction === 'action' && m.posted),
  'origin.event-target': msg((m) => m.tenantKnown && m.direction === 'event' && m.dropped),
  'origin.dropped': msg((m) => m.tenantKnown && m.dropped),
  'url.path': frame(always),
  'url.route-unknown': frame(always),
  'url.session': frame((f) => embedKind(f.url) === 'dashboard'),
  'url.allow-export': frame((f) => params(f.url).has('allowExport')),
  'url.timezone': frame((f) => params(f.url).has('timezone')),
  'url.timezone-offset': frame((f) => params(f.url).has('timezone')),
  'url.filter': frame((f) => [...params(f.url).keys()].some((k) => k.startsWith('f_'))),
  'url.param-unknown': frame((f) => params(f.url).size > 0),
  'url.origin': frame((f) => f.tenantKnown),
  'silence.never-ready': frame((f) => f.ready),
  'silence.no-dashboard-loaded': msg(
    (m) => m.anyLoaded && m.type === 'svc:event:ready' && m.payload?.surface === 'dashboard',
  ),
  'silence.ai-query-unanswered': msg((m) => m.anyAnswer && named(m, 'svc:event:ai-query') && isSubmitted(m)),
  'silence.host-never-acted': { on: 'capture' },
  'session.event-before-ready': msg(
    (m) => m.direction === 'event' && m.type !== 'svc:event:ready' && m.type !== 'svc:event:dashboard-loaded',
  ),
  'session.failed-before-ready': msg((m) => m.type === 'svc:event:error' && m.payload?.fatal === true),
  'session.ready-duplicate': msg((m) => m.direction === 'event' && m.type === 'svc:event:ready'),
  'session.loaded-before-ready': msg((m) => m.direction === 'event' && m.type === 'svc:event:dashboard-loaded'),
  'session.action-before-ready': msg((m) => m.direction === 'action'),
  'session.ai-query-unmatched': msg(
    (m) => named(m, 'svc:event:ai-query') && (m.payload?.status === 'completed' || m.payload?.status === 'error'),
  ),
  'session.previous-path': msg((m) => named(m, 'svc:event:navigate') && typeof m.payload?.previousPath === 'string'),
  'session.timestamp-order': msg((m) => m.direction === 'event'),
  'rest.auth': rest(always),
  'rest.path-param': rest(always),
  'rest.request-json': rest(takesBody),
  'rest.request-shape': rest(takesBody),
  'rest.request-unknown-field': rest(takesBody),
  'rest.disconnect-address': rest((r) => r.operation === 'disconnectReportFromWorkbook'),
  'rest.status': rest(always),
  'rest.status-undocumented': rest(always),
  'rest.response-shape': rest((r) => r.status === 200),
  'rest.response-unknown-field': rest((r) => r.status === 200),
  'rest.result': rest((r) => r.status === 200 && r.operation !== 'disconnectReportFromWorkbook'),
};

function isSubmitted(m: MessageFacts): boolean {
  return m.payload?.status === 'submitted';
}

/** RULE_APPLIES by the subject each rule is checked on, computed once. */
const BY_SUBJECT = new Map<Applies['on'], [string, (x: never) => boolean][]>();
for (const [id, a] of Object.entries(RULE_APPLIES)) {
  const list = BY_SUBJECT.get(a.on) ?? BY_SUBJECT.set(a.on, []).get(a.on)!;
  list.push([id, a.on === 'capture' ? always : (a.when as (x: never) => boolean)]);
}

/** The rules of `on` that apply to a subject, by the facts given. */
export function rulesFor<K extends Applies['on']>(
  on: K,
  facts: K extends 'message' ? MessageFacts : K extends 'frame' ? FrameFacts : RestResult & { status: number },
): string[] {
  const out: string[] = [];
  for (const [id, when] of BY_SUBJECT.get(on) ?? []) {
    if (when(facts as never)) {
      out.push(id);
    }
  }
  return out;
}
