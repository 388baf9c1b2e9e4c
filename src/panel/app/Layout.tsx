/**
 * The panel's layout: summary bar, filter bar, timeline, detail pane, status line. Keyboard: arrows move the
 * selection, Enter opens the details, Esc closes them (then clears the flow view's range: ui/escape.ts), Ctrl/Cmd+F
 * focuses the search box.
 */
import { createEffect, createSignal, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { usePanel } from '../ui/use-panel.ts';
import { useApp } from './context.ts';
import { SummaryBar } from '../ui/SummaryBar.tsx';
import { Integration } from '../ui/Integration.tsx';
import { FilterBar } from '../ui/FilterBar.tsx';
import { ViewSwitch } from '../features/flow/ViewSwitch.tsx';
import { Detail, type DetailTab } from '../ui/Detail.tsx';
import { CaptureBanner } from '../ui/CaptureBanner.tsx';
import { plural } from '../ui/format.ts';
import { pressEscape } from '../ui/escape.ts';

export interface LayoutProps {
  /** More detail tabs (issue 6: replay, copy as code). */
  extraTabs?: DetailTab[];
  /** More toolbar buttons (issue 6: import, export, composer); rendered again in the overflow menu when it is open. */
  toolbarActions?: () => JSX.Element;
  /** Above the list: what the panel shows when it is not the live tab (an imported file), with the way back. */
  source?: () => JSX.Element;
  /** Below the timeline: the composer / replay / export drawer (issue 6). */
  drawer?: () => JSX.Element;
}

export function Layout(p: LayoutProps) {
  const { store, notice, select, live, env } = useApp();
  const log = store.log;
  const [detailOpen, setDetailOpen] = createSignal(false);
  let grid: HTMLDivElement | undefined;
  let main: HTMLDivElement | undefined;
  let search: HTMLInputElement | undefined;

  const open = () => {
    if (store.timeline.selectedSeq !== null) {
      setDetailOpen(true);
    }
  };
  const close = () => {
    setDetailOpen(false);
    grid?.focus({ preventScroll: true });
  };
  // The details are those of the selected record: with none (Clear), or with the records replaced (an import,
  // another source: a selection kept by its seq would name another message), the list is shown. The same records
  // read again (`synced`: a service-worker restart) keep them open.
  onCleanup(log.on('replaced', () => setDetailOpen(false)));
  const selectedIndex = select(['selection', 'state'], (s) => s.timeline.selectedIndex());
  createEffect(() => {
    if (selectedIndex() < 0) {
      setDetailOpen(false);
    }
  });

  usePanelKeys(detailOpen, close, () => search);
  onMount(() => grid?.focus({ preventScroll: true }));
  useIdleIndexing(log);
  const splitter = useSplitter(() => main);

  return (
    <div class="app">
      <Integration onOpen={open} />
      <SummaryBar actions={p.toolbarActions} liveControls={!!live || !!env.fixture} />
      <FilterBar searchRef={(el) => (search = el)} />
      <Show when={notice()}>
        {(n) => (
          <div class="notice" role="note">
            {n()}
          </div>
        )}
      </Show>
      <CaptureBanner />
      {p.source?.()}
      {/* The details beside the list, at most the panel's width less the list's minimum; an overlay over the list
          where the panel is narrower than the two (styles.css: the container query on .main). */}
      <div
        class="main"
        classList={{ 'detail-open': detailOpen() }}
        ref={(el) => (main = el)}
        style={{ '--detail-width': `${splitter.width()}px` }}
      >
        <ViewSwitch onOpen={open} onClose={close} ref={(el) => (grid = el)} />
        <Show when={detailOpen()}>
          <div
            class="splitter"
            role="separator"
            tabindex="0"
            aria-orientation="vertical"
            aria-label="Resize details (← and → keys)"
            aria-valuenow={splitter.width()}
            aria-valuemin={280}
            onPointerDown={splitter.startDrag}
            onKeyDown={splitter.onKey}
          />
          <Detail onClose={close} extraTabs={p.extraTabs} />
        </Show>
      </div>
      {p.drawer?.()}
      <StatusLine />
    </div>
  );
}

/**
 * The panel's own keys. In DevTools, the devtools API forwards keydown events that match DevTools' shortcuts
 * (Ctrl/Cmd+F: its find bar; Esc: the Console drawer) from a listener on the panel's document; ours runs on the
 * window in the capture phase, before it, and stops the keys it acts on from reaching it.
 */
function usePanelKeys(detailOpen: () => boolean, close: () => void, search: () => HTMLInputElement | undefined) {
  const owned = (e: KeyboardEvent) => {
    e.preventDefault();
    e.stopPropagation();
  };
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'f' || e.key === 'F')) {
      owned(e);
      search()?.focus();
      search()?.select();
    } else if (
      e.key === 'Escape' &&
      !(
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      ) &&
      !(e.target as Element | null)?.closest?.('.act-drawer')
    ) {
      // What says "Esc …" first (the flow view's bar: "Esc clears it", the range), then the details, wherever the
      // focus is (docs/panel.md's keys).
      if (pressEscape()) {
        owned(e);
      } else if (detailOpen()) {
        owned(e);
        close();
      }
    }
  };
  onMount(() => window.addEventListener('keydown', onKey, true));
  onCleanup(() => window.removeEventListener('keydown', onKey, true));
}

type Deadline = { timeRemaining(): number };

/**
 * Compact the records, count by origin and type and build the lower-cased search text in idle time (never
 * during a scroll), so that the filter menus open and the first search over a big log run without that work.
 */
function useIdleIndexing(log: ReturnType<typeof useApp>['store']['log']) {
  let indexing = false;
  let lastScroll = 0;
  const onAnyScroll = () => {
    lastScroll = performance.now();
  };
  document.addEventListener('scroll', onAnyScroll, true);
  onCleanup(() => document.removeEventListener('scroll', onAnyScroll, true));
  const ric = (globalThis as { requestIdleCallback?: (f: (d: Deadline) => void) => void }).requestIdleCallback;
  const idle = (fn: (d?: Deadline) => void) => (ric ? ric(fn) : setTimeout(fn, 50));
  // A callback works in steps of at most 10 ms, for at most 30 ms and until 5 ms before its idle period ends (up to
  // 50 ms when nothing else is pending; the margin leaves room for a GC without a long task): a callback asked
  // again from an idle callback runs only in the next idle period, so one step per callback used a fifth of the
  // idle time, and the search text of a 100,000-record load was complete ~2 s after it. Each part of a step gets
  // the time left of the step, so a step never runs past it by more than the parts' own granularity (tens of
  // records).
  const indexStep = (d?: Deadline) => {
    if (performance.now() - lastScroll < 250) {
      idle(indexStep);
      return;
    }
    const until = performance.now() + (d ? Math.min(30, d.timeRemaining() - 5) : 4);
    for (;;) {
      const end = Math.min(until, performance.now() + 10);
      const left = () => end - performance.now();
      if (left() < 2) {
        idle(indexStep);
        return;
      }
      // Shared values first (a smaller heap: shorter GC pauses while scrolling), the counts by origin and type
      // (the filter menus), then the search text.
      if (log.compactSome(left()) && log.countSome(left()) && log.indexText(left())) {
        indexing = false;
        return;
      }
    }
  };
  // (on every change of the log's records, whether or not the filters show them)
  const startIndexing = () => {
    if (!indexing) {
      indexing = true;
      idle(indexStep);
    }
  };
  onCleanup(log.on('batch', startIndexing));
  onCleanup(log.on('reordered', startIndexing));
  onCleanup(log.on('replaced', startIndexing));
  onCleanup(log.on('synced', startIndexing));
}

/** The details' width and its splitter: dragged, or ←/→ by 40 px (Shift: 120 px). */
function useSplitter(main: () => HTMLDivElement | undefined) {
  const [width, setWidth] = createSignal(Math.max(360, Math.round(window.innerWidth * 0.42)));
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') {
      return;
    }
    e.preventDefault();
    const box = (main() ?? document.body).getBoundingClientRect();
    const step = (e.shiftKey ? 120 : 40) * (e.key === 'ArrowLeft' ? 1 : -1);
    setWidth(Math.min(box.width - 240, Math.max(280, width() + step)));
  };
  const startDrag = (e: PointerEvent) => {
    const el = e.currentTarget as HTMLElement;
    el.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => {
      const box = (main() ?? document.body).getBoundingClientRect();
      setWidth(Math.min(box.width - 240, Math.max(280, box.right - ev.clientX)));
    };
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
  };
  return { width, onKey, startDrag };
}

function StatusLine() {
  const { select } = usePanel();
  const info = select(['view', 'status', 'state'], (s) => ({
    shown: s.timeline.length,
    total: s.log.count,
    status: s.status,
    label: s.transportInfo?.label ?? '',
    kind: s.transportInfo?.kind,
    paused: s.log.state.paused,
  }));
  const conn = () => {
    const i = info();
    if (i.kind === 'file') {
      return `capture file: ${i.label}`;
    }
    if (i.kind === 'memory') {
      return i.label;
    }
    return i.status === 'connected'
      ? `live: ${i.label}`
      : i.status === 'disconnected'
        ? `reconnecting to the extension… (${i.label})`
        : i.status === 'offline'
          ? `not connected (${i.label})`
          : `connecting… (${i.label})`;
  };
  return (
    <footer class="status" role="status" aria-live="polite">
      <span>
        {info().shown.toLocaleString('en-US')} / {plural(info().total, 'record')} shown
      </span>
      <Show when={info().paused}>
        <span class="warn">recording paused</span>
      </Show>
      <span class="spacer" />
      <span class={`conn c-${info().status}`} title={conn()}>
        {conn()}
      </span>
    </footer>
  );
}
