/**
 * The filter bar: search box, toggle chips, and multi-select menus (type, surface, frame, origin), on one row:
 * what does not fit goes into its overflow menu (Toolbar.tsx), the search box and the verdicts last.
 */
import { For, Show, type JSX } from 'solid-js';
import { isFiltering, type FilterState, type ListFilter } from '../timeline/filters.ts';
import { CATALOG_SURFACES, CATALOG_TYPES, shortType } from '../log/protocol.ts';
import { frameLabel, plural } from './format.ts';
import { usePanel } from './use-panel.ts';
import { Icon } from './icons.tsx';
import { Popover } from './Popover.tsx';
import { Toolbar, type ToolbarItem } from './Toolbar.tsx';
import type { TimelineView } from '../timeline/timeline-view.ts';

const SEARCH_HELP =
  'Search the messages. Plain words match the message JSON, frame URL and origins. field:value narrows to a field: ' +
  'type:ready, surface:app, kind:post, origin:acme, target:*, verdict:invalid, rule:origin, severity:warning, payload.path:/embed, ' +
  'fatal:true, loadDurationMs:>1000; field: alone means "present"; "quoted text"; -term negates.';

/** Add `value` to the list filter `key`, or take it out. */
function toggleIn(view: TimelineView, key: ListFilter, value: string) {
  const cur = view.filters[key] as readonly string[];
  const next = cur.includes(value) ? cur.filter((x) => x !== value) : [...cur, value];
  view.setFilters({ [key]: next } as Partial<FilterState>);
}

/** The search box: the filter follows what is typed 120 ms after the last key (at once on Enter); Esc empties it. */
function SearchBox(p: { ref: (el: HTMLInputElement) => void; view: TimelineView; search: () => string }) {
  const view = p.view;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (value: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => view.setFilters({ search: value }), 120);
  };
  return (
    <input
      ref={p.ref}
      class="search"
      type="search"
      placeholder="Filter (text, type:ready, payload.path:/x, -kind:post)"
      aria-label="Search messages"
      title={SEARCH_HELP}
      value={p.search()}
      onInput={(e) => onSearch(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          clearTimeout(timer);
          view.setFilters({ search: e.currentTarget.value });
        }
        if (e.key === 'Escape' && e.currentTarget.value) {
          e.currentTarget.value = '';
          clearTimeout(timer);
          view.setFilters({ search: '' });
          e.stopPropagation();
        }
      }}
    />
  );
}

/** The type, frame and origin menus' options, with their counts in the log (catalog types first). */
function createMenuOptions(
  select: ReturnType<typeof usePanel>['select'],
  log: ReturnType<typeof usePanel>['store']['log'],
) {
  const typeOptions = select('state', () => {
    const types = log.types();
    const seen = [...types.keys()].filter((t) => !CATALOG_TYPES.includes(t)).sort();
    return [...CATALOG_TYPES, ...seen].map((t) => ({
      value: t,
      label: shortType(t),
      group: t.startsWith('svc:event:') ? 'Events' : t.startsWith('svc:action:') ? 'Actions' : 'Not in the catalog',
      count: types.get(t) ?? 0,
    }));
  });
  const frameOptions = select('state', () =>
    [...log.frames().values()].map((fr) => ({
      value: fr.url,
      label: frameLabel(fr.url) + (fr.surface ? ` · ${fr.surface}` : ''),
      title: fr.url,
      count: fr.count,
    })),
  );
  const originOptions = select('state', () =>
    [...log.origins().entries()].map(([o, n]) => ({ value: o, label: o, count: n })),
  );
  return { typeOptions, frameOptions, originOptions };
}

export function FilterBar(p: { searchRef: (el: HTMLInputElement) => void }) {
  const { store, select } = usePanel();
  const view = store.timeline,
    log = store.log;
  const f = select('filters', () => view.filters);
  const toggle = (key: ListFilter, value: string) => toggleIn(view, key, value);
  const chip = (key: ListFilter, value: string, label: string, count?: () => number, title?: string) => (
    <button
      type="button"
      class={`chip ch-${value}`}
      aria-pressed={(f()[key] as readonly string[]).includes(value)}
      onClick={() => toggle(key, value)}
      title={title}
    >
      {label}
      <Show when={count}>{(c) => <span class="n">{c()().toLocaleString('en-US')}</span>}</Show>
    </button>
  );
  const counts = select('state', () => log.counts);
  const foreignHidden = select(['state', 'filters'], () => (view.filters.showForeign ? 0 : log.counts.foreign));

  const { typeOptions, frameOptions, originOptions } = createMenuOptions(select, log);

  const menu = (label: string, key: ListFilter, options: () => Option[], labelOf?: (value: string) => string) => (
    <Menu
      label={label}
      selected={() => f()[key] as string[]}
      options={options}
      labelOf={labelOf}
      onToggle={(v) => toggle(key, v)}
      onClear={() => view.setFilters({ [key]: [] } as Partial<FilterState>)}
    />
  );
  const items: ToolbarItem[] = [
    {
      id: 'search',
      priority: 0,
      grow: 150,
      render: () => <SearchBox ref={p.searchRef} view={view} search={() => f().search} />,
    },
    {
      id: 'direction',
      priority: 2,
      render: () => (
        <div class="group" role="group" aria-label="Direction">
          {chip('directions', 'event', '↑ events', undefined, 'Events: embed → host')}
          {chip('directions', 'action', '↓ actions', undefined, 'Actions: host → embed')}
        </div>
      ),
    },
    {
      id: 'kind',
      priority: 3,
      render: () => (
        <div class="group" role="group" aria-label="Kind">
          {chip('kinds', 'post', 'post', undefined, 'postMessage calls observed in the posting frame')}
          {chip('kinds', 'receive', 'receive', undefined, 'message events observed in the receiving frame')}
        </div>
      ),
    },
    {
      id: 'verdict',
      priority: 1,
      render: () => (
        <div class="group" role="group" aria-label="Verdict">
          {chip('verdicts', 'valid', 'valid', () => counts().valid)}
          {chip('verdicts', 'invalid', 'invalid', () => counts().invalid)}
          <button
            type="button"
            class="chip ch-foreign"
            aria-pressed={f().showForeign}
            onClick={() => view.setFilters({ showForeign: !view.filters.showForeign })}
            title="Messages that are not svc-embed (other extensions, libraries): hidden unless shown here"
          >
            foreign<span class="n">{counts().foreign.toLocaleString('en-US')}</span>
          </button>
        </div>
      ),
    },
    {
      id: 'severity',
      priority: 3,
      render: () => (
        <div class="group" role="group" aria-label="Issue severity">
          {chip('severities', 'error', 'errors', undefined, 'Records with an error')}
          {chip('severities', 'warning', 'warnings', undefined, 'Records with a warning')}
          {chip('severities', 'info', 'info', undefined, 'Records with an info note')}
        </div>
      ),
    },
    { id: 'type', priority: 1, render: () => menu('Type', 'types', typeOptions, shortType) },
    {
      id: 'surface',
      priority: 2,
      render: () => menu('Surface', 'surfaces', () => CATALOG_SURFACES.map((s) => ({ value: s, label: s }))),
    },
    { id: 'frame', priority: 2, render: () => menu('Frame', 'frames', frameOptions) },
    { id: 'origin', priority: 2, render: () => menu('Origin', 'origins', originOptions, (o) => o) },
    {
      id: 'reset',
      priority: 0,
      render: () => (
        <Show when={isFiltering(f())}>
          <button
            type="button"
            class="link"
            onClick={() => view.resetFilters()}
            title="Clear every filter (foreign traffic stays as it is)"
          >
            Reset
          </button>
        </Show>
      ),
    },
    {
      id: 'foreign-hidden',
      priority: 4,
      render: () => (
        <Show when={foreignHidden() > 0}>
          <span class="muted small" title="Messages that are not svc-embed are hidden by default">
            {plural(foreignHidden(), 'foreign message')} hidden
          </span>
        </Show>
      ),
    },
  ];
  return <Toolbar label="Filters" class="filterbar" items={items} />;
}

interface Option {
  value: string;
  label: string;
  group?: string;
  title?: string;
  count?: number;
}

function Menu(p: {
  label: string;
  selected: () => string[];
  options: () => Option[];
  /** A selected value's label without the options (whose counts may take a pass over the log: see `log.types`). */
  labelOf?: (value: string) => string;
  onToggle: (v: string) => void;
  onClear: () => void;
}) {
  const groups = () => {
    const out = new Map<string, Option[]>();
    for (const o of p.options()) {
      const g = o.group ?? '';
      if (!out.has(g)) {
        out.set(g, []);
      }
      out.get(g)!.push(o);
    }
    return [...out.entries()];
  };
  const summary = (): JSX.Element => {
    const s = p.selected();
    return s.length === 0
      ? 'all'
      : s.length === 1
        ? (p.labelOf?.(s[0]) ?? p.options().find((o) => o.value === s[0])?.label ?? s[0])
        : `${s.length} selected`;
  };
  return (
    <Popover
      class="menu"
      buttonClass="chip menu-button"
      pressed={() => p.selected().length > 0}
      button={
        <>
          {p.label}: <span class="menu-summary">{summary()}</span> <Icon name="chevronDown" />
        </>
      }
      label={`${p.label} filter`}
      panelId={`menu-${p.label.toLowerCase()}`}
      panelClass="menu-pop"
    >
      <Show when={p.options().length === 0}>
        <div class="muted pad">Nothing recorded yet.</div>
      </Show>
      <For each={groups()}>
        {([g, opts]) => (
          <fieldset>
            <Show when={g}>
              <legend>{g}</legend>
            </Show>
            <For each={opts}>
              {(o) => (
                <label class="opt" title={o.title ?? o.value}>
                  <input
                    type="checkbox"
                    checked={p.selected().includes(o.value)}
                    onChange={() => p.onToggle(o.value)}
                  />
                  <span class="opt-label">{o.label}</span>
                  <Show when={o.count !== undefined}>
                    <span class="n">{(o.count ?? 0).toLocaleString('en-US')}</span>
                  </Show>
                </label>
              )}
            </For>
          </fieldset>
        )}
      </For>
      <div class="popover-foot">
        <button type="button" class="link" onClick={() => p.onClear()}>
          All {p.label.toLowerCase()}s
        </button>
      </div>
    </Popover>
  );
}
