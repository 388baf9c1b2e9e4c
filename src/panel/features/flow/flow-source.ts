/**
 * What the flow view draws: the flow of the records the timeline shows, and the timeline's time origin. The flow is
 * made again when the view's order changes (filters, search, a new log) or the tenant origin does (it decides which
 * frames are embeds), from the flow's index of the log (frames, pairs, times), which is made again only when the
 * log changed since. Live records rebuild it at once in a small log, at most every LIVE_REBUILD_MS in a big one
 * (the index reads the whole log).
 */
import { createMemo, createSignal, onCleanup, type Accessor } from 'solid-js';
import type { FlowIndex, FlowModel } from '../../log/protocol.ts';
import type { TimelineView } from '../../timeline/timeline-view.ts';
import type { PanelCore } from '../../ui/use-panel.ts';
import { flowIndexOf, flowOfView } from './flow-model.ts';

/** From this many records on, live records rebuild the flow at most every LIVE_REBUILD_MS. */
const BIG_LOG = 20_000;
const LIVE_REBUILD_MS = 500;

export interface FlowSource {
  model: Accessor<FlowModel>;
  /** The timeline's time origin (the first ready, or the first record): a message has one time in both views. */
  timeOrigin: Accessor<ReturnType<TimelineView['timeOrigin']>>;
}

export function createFlowSource({ store, select }: PanelCore, expandOthers: Accessor<boolean>): FlowSource {
  const view = store.timeline,
    log = store.log;
  const [version, setVersion] = createSignal(0);
  const bump = () => setVersion((v) => v + 1);
  let logChanged = true;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      bump();
    }, LIVE_REBUILD_MS);
  };
  onCleanup(view.on('filters', bump));
  onCleanup(
    view.on('rebuilt', () => {
      logChanged = true;
      bump();
    }),
  );
  onCleanup(
    view.on('appended', (e) => {
      logChanged = true;
      if (e.count > 0 || e.updated) {
        (log.count < BIG_LOG ? bump : later)();
      }
    }),
  );
  onCleanup(() => clearTimeout(pending));
  const tenantOrigin = createMemo(select('state', () => log.state.tenantOrigin));
  let index: FlowIndex | null = null;
  let indexTenant: string | null = null;
  const model = createMemo(() => {
    version();
    const src = { records: log.all(), order: view.order, tenantOrigin: tenantOrigin() };
    if (!index || logChanged || indexTenant !== src.tenantOrigin) {
      index = flowIndexOf(src);
      indexTenant = src.tenantOrigin;
      logChanged = false;
    }
    return flowOfView(src, { expandOthers: expandOthers() }, index);
  });
  const timeOrigin = createMemo(
    select(['view', 'state'], () => view.timeOrigin()),
    undefined,
    { equals: (a, b) => !!a && !!b && a.time === b.time && a.base === b.base },
  );
  return { model, timeOrigin };
}
