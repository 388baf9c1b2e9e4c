/**
 * A toolbar on one row, as DevTools' own: what does not fit goes into its overflow menu (⋮), least important
 * first, instead of wrapping the bar onto more rows. Items keep their order; an item is shown in the bar only if
 * every item more important than it is too, so the bar hides from the least important end, predictably.
 *
 * Widths are measured as laid out (ResizeObserver on the bar and on each item); an item in the menu keeps the
 * width it last had in the bar. A growing item (the search box) counts its minimum width. Items in the menu are
 * rendered again there while it is open: they read and write the same store as in the bar.
 */
import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { Icon } from './icons.tsx';
import { Popover } from './Popover.tsx';

export interface ToolbarItem {
  id: string;
  /** 0 stays longest; a higher number goes into the menu first. */
  priority: number;
  render: () => JSX.Element;
  /** Grows to fill the bar, down to this width (px). */
  grow?: number;
  /** Starts the bar's right-aligned part. */
  push?: boolean;
}

/** The width the overflow button takes (its own size and the gap before it). */
const MORE = 34;

export function Toolbar(p: { label: string; class: string; items: ToolbarItem[] }) {
  const [hidden, setHidden] = createSignal<ReadonlySet<string>>(new Set());
  const widths = new Map<string, number>();
  const els = new Map<string, HTMLElement>();
  let bar!: HTMLDivElement;

  const fitItems = () => {
    if (!bar?.isConnected) {
      return;
    }
    const was = hidden();
    for (const it of p.items) {
      const el = els.get(it.id);
      if (el && !was.has(it.id)) {
        widths.set(it.id, it.grow ?? el.offsetWidth);
      }
    }
    const cs = getComputedStyle(bar);
    const gap = Number.parseFloat(cs.columnGap) || 0;
    const room = bar.clientWidth - (Number.parseFloat(cs.paddingLeft) || 0) - (Number.parseFloat(cs.paddingRight) || 0);
    const need = (ids: ToolbarItem[]) => ids.reduce((s, it) => s + (widths.get(it.id) ?? 0) + gap, -gap);
    let next: Set<string> = new Set();
    if (need(p.items) > room) {
      const byPriority = [...p.items].sort((a, b) => a.priority - b.priority);
      let used = MORE;
      let full = false;
      for (const it of byPriority) {
        const w = (widths.get(it.id) ?? 0) + gap;
        if (full || used + w > room) {
          full = true;
          next.add(it.id);
        } else {
          used += w;
        }
      }
    }
    if (next.size === was.size && [...next].every((id) => was.has(id))) {
      next = was as Set<string>;
    } else {
      setHidden(next);
    }
  };
  const observer = new ResizeObserver(() => fitItems());
  onCleanup(() => observer.disconnect());
  const track = (id: string) => (el: HTMLElement) => {
    els.set(id, el);
    observer.observe(el);
  };

  const inMenu = () => p.items.filter((it) => hidden().has(it.id));
  return (
    <div
      class={`toolbar ${p.class}`}
      role="toolbar"
      aria-label={p.label}
      ref={(el) => {
        bar = el;
        observer.observe(el);
      }}
    >
      <For each={p.items}>
        {(it) => (
          <div
            ref={track(it.id)}
            class={`tb-item${it.grow ? ' tb-grow' : ''}${it.push ? ' tb-push' : ''}`}
            style={it.grow ? { 'min-width': `${it.grow}px` } : undefined}
            data-tb={it.id}
            hidden={hidden().has(it.id)}
          >
            {it.render()}
          </div>
        )}
      </For>
      <Show when={inMenu().length > 0}>
        <Popover
          class="tb-more"
          buttonClass="tool tb-more-button"
          buttonLabel={`More ${p.label.toLowerCase()} tools`}
          buttonTitle="More tools"
          button={<Icon name="more" />}
          label={`More ${p.label.toLowerCase()} tools`}
          panelClass="tb-menu"
        >
          <For each={inMenu()}>
            {(it) => (
              <div class="tb-menu-item" data-tb={it.id}>
                {it.render()}
              </div>
            )}
          </For>
        </Popover>
      </Show>
    </div>
  );
}
