/**
 * What the summary leads with: the integration's state in words (protocol/diagnose.ts `integrationState`) and the
 * first record concerned, for the current page (with preserve log, the records since the last top-level
 * navigation), from the records' issues as the background judged them (or the file transport, as `check` does).
 * Read through the log's accessors; computed when asked (the UI asks at most a few times a second, and once a load).
 */
import { diagnose, integrationState, DEFAULT_READY_TIMEOUT_MS, type IntegrationState } from './protocol.ts';
import type { RecordLog } from './record-log.ts';
import { pageStartIndex } from './related.ts';

export interface Integration extends IntegrationState {
  /** The full text behind a state that needs explaining (never ready: what the frame said, the likely causes). */
  detail: string | null;
  /** Notes on the whole session (the host never acted). */
  notes: string[];
}

export function integrationOf(log: RecordLog, now = Date.now()): Integration {
  const opts = {
    tenantOrigin: log.state.tenantOrigin,
    now,
    readyTimeoutMs: log.state.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
  };
  // As the log keeps them while records come: the page's records `diagnose` needs for its embeds and notes, and
  // those with issues (what the state reads of the records); the whole page where the log cannot keep them.
  const facts = log.pageFacts();
  let d: ReturnType<typeof diagnose>;
  let s: IntegrationState;
  if (facts) {
    d = diagnose(
      facts.judged.map((i) => log.at(i)),
      opts,
    );
    s = integrationState(
      facts.withIssues.map((i) => log.at(i)),
      d,
      { svcEmbedSeen: facts.svcEmbedSeen },
    );
  } else {
    const page = log.all().slice(pageStartIndex(log));
    d = diagnose(page, opts);
    s = integrationState(page, d);
  }
  let detail: string | null = null;
  if (s.seq !== null && (s.state === 'never-ready' || s.state === 'address')) {
    const r = log.bySeq(s.seq);
    const rule = s.state === 'never-ready' ? 'silence.never-ready' : null;
    const hits = (r?.issues ?? []).filter((i) =>
      rule ? i.rule === rule : i.rule.startsWith('url.') && i.severity !== 'info',
    );
    detail = hits.map((i) => i.message).join(' · ') || null;
  }
  return { ...s, detail, notes: d.notes.map((n) => n.message) };
}
