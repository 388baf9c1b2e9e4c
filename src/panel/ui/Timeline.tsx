/**
 * The virtualized timeline (ARIA grid). Rows are positioned by @tanstack/virtual-core (see virtual.ts); a row reads its record
 * from the store by view position, so a filter change re-renders only the visible rows.
 * Live tail: follows new records until the user scrolls up; "Follow" (or End) resumes.
 */
import { batch, createComputed, createEffect, createMemo, createRenderEffect, createSignal, For, Index, on, Show, untrack } from 'solid-js';
import { observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { createRowVirtualizer } from './virtual.ts';
import type { FrameInfo, PanelStore } from '../store.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { PanelSignals } from './bridge.ts';
import { formatBytes, formatClock, formatRelative, frameLabel, hostOf, originOf, plural } from '../format.ts';
import { shortType } from '../catalog.ts';
import { preview } from '../jsontree.ts';

export const ROW_H = 22;

export interface TimelineProps {
  store: PanelStore;
  sig: PanelSignals;
  onOpen: () => void;
  onClose: () => void;
  ref?: (el: HTMLDivElement) => void;
}

const COLUMNS = ['Time', 'Dir', 'Kind', 'Type', 'Surface', 'Frame', 'Origin → target', 'Verdict', 'Size'];

export function Timeline(props: TimelineProps) {
  const { store, sig } = props;
  let scrollEl!: HTMLDivElement;
  let gridEl!: HTMLDivElement;
  const [follow, setFollow] = createSignal(true);
  const [unseen, setUnseen] = createSignal(0);
  const count = () => { sig.view(); return store.view.length; };

  // The virtualizer learns the scroll offset (and the viewport's size) from scroll events and a ResizeObserver,
  // after the fact. While the timeline follows the tail, a new count (a load, live records, a filter change) would
  // render the rows at the old offset first, and the rows at the end a frame later, after the scroll event. So
  // the virtualizer sees a new count only after it was told the end offset, through its own observer callbacks:
  // the rows at the end render once, and the scroll write that follows (`scrollToEnd`) lands where they are.
  // The size is read in a microtask, once this update's other changes (summary, filter bar) are in the DOM and
  // before the new rows are: the layout that read forces does not include them.
  let reportOffset: ((offset: number, isScrolling: boolean) => void) | null = null;
  let reportRect: ((rect: { width: number; height: number }) => void) | null = null;
  // What the rows show: the count the virtualizer has, and a version bumped with it for every view change (the rows
  // read this rather than the store's view signal, so that they render once the virtualizer has its new range).
  const [shownCount, setShownCount] = createSignal(0);
  const [rowsVersion, setRowsVersion] = createSignal(0);
  const show = (n: number) => batch(() => { setShownCount(n); setRowsVersion((v) => v + 1); });
  let tailQueued = false;
  const showAtEnd = () => {
    tailQueued = false;
    const n = count();
    if (n === shownCount() || !follow() || !scrollEl?.isConnected || !reportOffset || !reportRect) { show(n); return; }
    const width = scrollEl.clientWidth, height = scrollEl.clientHeight;
    if (height <= 0) { show(n); return; } // not laid out (a hidden panel): as before, from scroll events
    const rect = reportRect, offset = reportOffset;
    batch(() => {
      rect({ width, height });
      offset(Math.max(0, n * ROW_H - height), false);
      show(n);
    });
  };
  createComputed(() => {
    const n = count();
    if (untrack(follow) && untrack(shownCount) !== n && reportOffset) {
      if (!tailQueued) { tailQueued = true; queueMicrotask(showAtEnd); }
    } else if (!tailQueued) show(n);
  });

  const virtualizer = createRowVirtualizer({
    count: shownCount,
    getScrollElement: () => scrollEl,
    estimateSize: () => ROW_H,
    overscan: 2,
    observeElementOffset: (instance, cb) => {
      reportOffset = cb;
      const stop = observeElementOffset(instance, cb);
      return () => { stop?.(); if (reportOffset === cb) reportOffset = null; };
    },
    observeElementRect: (instance, cb) => {
      reportRect = cb;
      const stop = observeElementRect(instance, cb);
      return () => { stop?.(); if (reportRect === cb) reportRect = null; };
    },
  });

  // ---- live tail
  let lastTop = 0;
  const scrollToEnd = () => { if (scrollEl) { scrollEl.scrollTop = scrollEl.scrollHeight; lastTop = scrollEl.scrollTop; } };
  const onScroll = () => {
    const el = scrollEl;
    const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_H;
    if (atBottom) { if (!follow()) { setFollow(true); setUnseen(0); } }
    else if (el.scrollTop < lastTop - 1) setFollow(false);
    lastTop = el.scrollTop;
  };
  const resume = () => { setFollow(true); setUnseen(0); scrollToEnd(); };
  createEffect(on(() => virtualizer.getTotalSize(), () => { if (untrack(follow)) queueMicrotask(scrollToEnd); }));
  createEffect(on(sig.appended, () => {
    if (!untrack(follow)) setUnseen((n) => n + 1);
  }, { defer: true }));

  // ---- selection
  createEffect(on(sig.selection, () => {
    const pos = store.selectedViewPos();
    if (pos >= 0 && scrollEl) {
      const top = pos * ROW_H, bottom = top + ROW_H;
      if (top < scrollEl.scrollTop || bottom > scrollEl.scrollTop + scrollEl.clientHeight) virtualizer.scrollToIndex(pos, { align: 'auto' });
    }
  }, { defer: true }));
  const activeId = () => { sig.selection(); sig.view(); return store.selectedSeq !== null && store.selectedViewPos() >= 0 ? `ei-row-${store.selectedSeq}` : undefined; };

  const pageRows = () => Math.max(1, Math.floor((scrollEl?.clientHeight ?? 400) / ROW_H) - 1);
  const onKeyDown = (e: KeyboardEvent) => {
    const k = e.key;
    if (k === 'ArrowDown' || k === 'ArrowUp') { store.moveSelection(k === 'ArrowDown' ? 1 : -1); e.preventDefault(); }
    else if (k === 'PageDown' || k === 'PageUp') { store.moveSelection(k === 'PageDown' ? pageRows() : -pageRows()); e.preventDefault(); }
    else if (k === 'Home') { store.selectAt(0); e.preventDefault(); }
    else if (k === 'End') { store.selectAt(store.view.length - 1); resume(); e.preventDefault(); }
    else if (k === 'Enter') { if (store.selectedSeq === null) store.selectAt(0); props.onOpen(); e.preventDefault(); }
    else if (k === 'Escape') { props.onClose(); }
    if (k === 'ArrowUp' || k === 'PageUp' || k === 'Home') setFollow(false);
  };

  const timeTitle = () => { sig.view(); return store.timeOrigin().base === 'ready' ? 'ready' : 'first'; };

  return (
    <div class="timeline">
      <div
        class="grid" role="grid" tabindex="0" ref={(el) => { gridEl = el; props.ref?.(el); }}
        aria-label="Recorded messages" aria-rowcount={count() + 1} aria-colcount={COLUMNS.length}
        aria-activedescendant={activeId()} onKeyDown={onKeyDown}
      >
        <div role="rowgroup" class="grid-head">
          <div role="row" class="row head" aria-rowindex={1}>
            <div role="columnheader" class="c-time">
              <button class="link" title={`Time since ${timeTitle() === 'ready' ? 'svc:event:ready' : 'the first record'}; click to switch`}
                onClick={() => store.setTimeBase(store.timeBase === 'ready' ? 'first' : 'ready')}>Time <span class="muted">{timeTitle()}</span></button>
            </div>
            <For each={COLUMNS.slice(1)}>{(c) => <div role="columnheader" class={`c-${c.split(' ')[0].toLowerCase()}`} title={c === 'Dir' ? 'Direction: ↑ event (embed → host), ↓ action (host → embed)' : undefined}>{c === 'Dir' ? '⇅' : c}</div>}</For>
          </div>
        </div>
        <div role="rowgroup" class="grid-body" ref={scrollEl} onScroll={onScroll} onWheel={(e) => { if (e.deltaY < 0) setFollow(false); }}>
          <div class="grid-canvas" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {/* Index, not For: the virtualizer hands out new item objects on every scroll; rows are reused by slot. */}
            <Index each={virtualizer.getVirtualItems()}>
              {(item) => <Row store={store} sig={sig} version={rowsVersion} pos={() => item().index} start={() => item().start} onOpen={props.onOpen} grid={() => gridEl} />}
            </Index>
          </div>
          <WarmRow />
          <Empty store={store} sig={sig} />
        </div>
      </div>
      <Show when={!follow()}>
        <button class="follow" onClick={resume} title="Scroll to the newest record and keep following (End)">
          ↓ {unseen() > 0 ? 'New records — follow' : 'Follow new records'}
        </button>
      </Show>
    </div>
  );
}

/**
 * A hidden row with every font, glyph and badge style a real row uses, laid out when the panel opens: the font
 * lookups (fallback glyphs such as arrows included) and the first shaping then happen before the first records
 * arrive rather than in their first render. Not in the accessibility tree; no role.
 */
function WarmRow() {
  return (
    <div class="row odd warm" aria-hidden="true">
      <div class="c-time">+0.123 s −0:01.5</div><div class="c-dir d-event">↑↓⟳·</div><div class="c-kind">post receive nav</div>
      <div class="c-type">view dashboard-loaded</div><div class="c-surface">dashboard</div><div class="c-frame">localhost:5173/embed/app</div>
      <div class="c-origin">127.0.0.1:5173 → localhost *</div>
      <div class="c-verdict"><span class="badge b-valid">valid</span><span class="badge b-invalid">invalid</span><span class="count s-error">2</span></div>
      <div class="c-size">1.2 kB 999 B✂</div>
    </div>
  );
}

function Empty(p: { store: PanelStore; sig: PanelSignals }) {
  const info = () => { p.sig.view(); p.sig.state(); return { total: p.store.records.length, shown: p.store.view.length, foreign: p.store.counts.foreign }; };
  return (
    <Show when={info().shown === 0}>
      <div class="empty" role="status">
        <Show when={info().total === 0} fallback={
          <>
            <p><strong>No message matches the filters.</strong> {plural(info().total, 'record')} recorded{p.store.filters.showForeign ? '' : `, ${plural(info().foreign, 'foreign message')} hidden`}.</p>
            <p><button onClick={() => p.store.resetFilters()}>Reset filters</button>{' '}
              <Show when={!p.store.filters.showForeign && info().foreign > 0}><button onClick={() => p.store.setFilters({ showForeign: true })}>Show foreign traffic</button></Show></p>
          </>
        }>
          <p><strong>Waiting for messages…</strong></p>
          <p class="muted">Embed Inspector records the window messages of this tab's page and all its frames: the svc-embed events an
            embed sends and the actions the host posts. Reload the page to capture a session from its start.</p>
        </Show>
      </div>
    </Show>
  );
}

interface RowProps { store: PanelStore; sig: PanelSignals; version: () => number; pos: () => number; start: () => number; onOpen: () => void; grid: () => HTMLDivElement }

/** What a row shows of record `i` (its text, titles and classes). */
function rowCells(store: PanelStore, i: number, r: ClassifiedRecord, t0: number, frame: FrameInfo | undefined) {
  const m = store.meta[i];
  const receiverOrigin = r.kind === 'receive' ? originOf(r.frameUrl) : r.targetOrigin ?? '';
  const errors = r.issues.filter((x) => x.severity === 'error').length;
  return {
    seq: r.seq,
    time: formatRelative(r.time - t0),
    clock: formatClock(r.time),
    dir: r.navigation ? '⟳' : m.direction === 'event' ? '↑' : m.direction === 'action' ? '↓' : '·',
    dirClass: r.navigation ? 'nav' : m.direction || 'none',
    dirTitle: r.navigation ? 'frame navigation' : m.direction === 'event' ? 'event: embed → host' : m.direction === 'action' ? 'action: host → embed' : 'not an svc-embed message',
    kind: r.navigation ? 'nav' : r.kind,
    type: r.navigation ? `navigated to ${frameLabel(String((r.data as { url?: unknown })?.url ?? r.frameUrl))}` : m.type ? shortType(m.type) : preview(r.data, 80),
    typeTitle: m.type || undefined,
    typeClass: r.navigation || !m.type ? 'muted' : '',
    surface: m.surface,
    frame: frameLabel(r.frameUrl) + (frame?.surface ? ` · ${frame.surface}` : ''),
    frameUrl: r.frameUrl,
    origins: `${hostOf(r.origin)} → ${r.targetOrigin === '*' ? '*' : hostOf(receiverOrigin)}`,
    originsTitle: `${r.origin} → ${r.kind === 'post' ? `target origin ${r.targetOrigin ?? '?'}` : `received in ${receiverOrigin}`}`,
    wildcard: r.targetOrigin === '*',
    verdict: r.navigation ? '' : r.verdict,
    issues: r.issues.length,
    issueClass: errors ? 'error' : r.issues.some((x) => x.severity === 'warning') ? 'warning' : 'info',
    size: formatBytes(store.sizeAt(i)),
    truncated: typeof r.originalSize === 'number',
    dropped: !!r.dropped,
    threw: r.error,
    injected: !!r.injected,
  };
}

type RowCells = ReturnType<typeof rowCells>;

function Row(p: RowProps) {
  const { store } = p;
  // The same record, time origin and frame surface as last time (live records appended below, a filter change
  // that leaves this row's record in place): the same cells, so nothing in the row is touched.
  let last: { r: ClassifiedRecord; t0: number; surface: string | undefined } | null = null;
  const cells = createMemo<RowCells | null>((prev) => {
    p.version();
    const i = store.view[p.pos()];
    if (i === undefined) { last = null; return null; }
    const r = store.records[i];
    const t0 = store.timeOrigin().time;
    const frame = store.frames.get(r.frameUrl);
    if (prev && last && last.r === r && last.t0 === t0 && last.surface === frame?.surface) return prev;
    last = { r, t0, surface: frame?.surface };
    return rowCells(store, i, r, t0, frame);
  }, null);
  const selected = () => { p.sig.selection(); const c = cells(); return !!c && c.seq === store.selectedSeq; };
  const onClick = () => { const c = cells(); if (!c) return; store.select(c.seq); p.onOpen(); p.grid().focus({ preventScroll: true }); };
  // Each text cell holds one Text node, made once per row slot; one render effect writes the row's texts into them
  // (`data`), rather than one computation per cell, or a new Text node per update (`textContent`): scrolling
  // rewrites every visible row each frame, and new nodes are garbage for the DOM's collector.
  const text = { time: new Text(), dir: new Text(), type: new Text(), surface: new Text(), frame: new Text(), origins: new Text(), size: new Text() };
  const put = (node: Text, v: string) => { if (node.data !== v) node.data = v; };
  createRenderEffect(() => {
    const c = cells();
    if (!c) return;
    put(text.time, c.time); put(text.dir, c.dir); put(text.type, c.type); put(text.surface, c.surface);
    put(text.frame, c.frame); put(text.origins, c.origins); put(text.size, c.truncated ? `${c.size}✂` : c.size);
  });
  return (
    <Show when={cells()}>
      {(c) => (
        <div role="row" id={`ei-row-${c().seq}`} class={`row ${p.pos() % 2 ? 'odd' : ''} v-${c().verdict || 'nav'}${c().dropped ? ' dropped' : ''}`}
          aria-rowindex={p.pos() + 2} aria-selected={selected()} style={{ transform: `translateY(${p.start()}px)` }} onClick={onClick}>
          <div role="gridcell" class="c-time" title={c().clock}>{text.time}</div>
          <div role="gridcell" class={`c-dir d-${c().dirClass}`} title={c().dirTitle}>{text.dir}</div>
          <div role="gridcell" class="c-kind">{c().kind}{c().injected ? <span class="tag" title="sent by Embed Inspector">inj</span> : null}</div>
          <div role="gridcell" class={`c-type ${c().typeClass}`} title={c().typeTitle}>{text.type}</div>
          <div role="gridcell" class="c-surface">{text.surface}</div>
          <div role="gridcell" class="c-frame" title={c().frameUrl}>{text.frame}</div>
          <div role="gridcell" class={`c-origin${c().wildcard ? ' wildcard' : ''}`} title={c().originsTitle}>{text.origins}</div>
          <div role="gridcell" class="c-verdict">
            <Show when={c().verdict}><span class={`badge b-${c().verdict}`}>{c().verdict}</span></Show>
            <Show when={c().issues > 0}><span class={`count s-${c().issueClass}`} title={`${c().issues} issue(s)`}>{c().issues}</span></Show>
            <Show when={c().dropped}><span class="badge b-dropped" title="the browser dropped this post (target origin mismatch)">dropped</span></Show>
            <Show when={c().threw}><span class="badge b-dropped" title={`postMessage threw: ${c().threw}`}>threw</span></Show>
          </div>
          <div role="gridcell" class="c-size" title={c().truncated ? 'over the capture size cap: truncated' : undefined}>{text.size}</div>
        </div>
      )}
    </Show>
  );
}
