/**
 * A toolbar on one row, as DevTools' own: what does not fit goes into its overflow menu (⋮), least important
 * first, instead of wrapping the bar onto more rows. Items keep their order; an item is shown in the bar only if
 * every item more important than it is too, so the bar hides from the least important end, predictably.
 *
 * Widths are measured as laid out (the ResizeObserver's entries for the bar and for each item); an item in the menu
 * keeps the width it last had in the bar. A growing item (the search box) counts its minimum width. Items in the menu are
 * rendered again there while it is open: they read and write the same store as in the bar. A control that opens
 * something elsewhere (a drawer: `data-closes-menu`) closes the menu once it has acted, as a menu item does, so the
 * menu never covers what it opened; the others (inputs, toggles, menus) keep it open.
 */
import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { Icon } from './icons.tsx';
import { Popover, type PopoverApi } from './Popover.tsx';

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
  let bar!: HTMLDivElement;

  let room = 0;
  let gap: number | undefined;

  // Sizes come from the observer's entries (laid out, as the browser hands them over), never from reading the
  // layout: a read after another toolbar's callback changed the DOM would force a layout in the middle of the frame.
  const fitItems = (entries: readonly ResizeObserverEntry[]) => {
    if (!bar?.isConnected) {
      return;
    }
    const was = hidden();
    for (const entry of entries) {
      const size = entry.borderBoxSize?.[0];
      if (entry.target === bar) {
        room = entry.contentBoxSize?.[0]?.inlineSize ?? entry.contentRect.width;
        continue;
      }
      const id = (entry.target as HTMLElement).dataset.tb;
      const it = id === undefined ? undefined : p.items.find((x) => x.id === id);
      // A hidden item reports no size: it keeps the width it last had in the bar.
      if (it && !was.has(it.id)) {
        widths.set(it.id, it.grow ?? size?.inlineSize ?? entry.contentRect.width);
      }
    }
    // A bar first seen while not laid out (a DevTools panel not shown yet) reported nothing useful: measure what is
    // still unknown once it is (rare: a read here may force a layout).
    if (room <= 0) {
      const cs = getComputedStyle(bar);
      room = bar.clientWidth - (Number.parseFloat(cs.paddingLeft) || 0) - (Number.parseFloat(cs.paddingRight) || 0);
    }
    for (const it of p.items) {
      if (!it.grow && !was.has(it.id) && !widths.has(it.id)) {
        const el = bar.querySelector<HTMLElement>(`[data-tb="${it.id}"]`);
        if (el?.offsetWidth) {
          widths.set(it.id, el.offsetWidth);
        }
      }
    }
    gap ??= Number.parseFloat(getComputedStyle(bar).columnGap) || 0;
    const g = gap;
    const need = (ids: ToolbarItem[]) => ids.reduce((s, it) => s + (widths.get(it.id) ?? 0) + g, -g);
    const next = new Set<string>();
    if (need(p.items) > room) {
      const byPriority = [...p.items].sort((a, b) => a.priority - b.priority);
      let used = MORE;
      let full = false;
      for (const it of byPriority) {
        const w = (widths.get(it.id) ?? 0) + g;
        if (full || used + w > room) {
          full = true;
          next.add(it.id);
        } else {
          used += w;
        }
      }
    }
    if (next.size !== was.size || [...next].some((id) => !was.has(id))) {
      setHidden(next);
    }
  };
  const observer = new ResizeObserver((entries) => fitItems(entries));
  onCleanup(() => observer.disconnect());

  const inMenu = () => p.items.filter((it) => hidden().has(it.id));
  let menu: PopoverApi | undefined;
  // (bubbles here after the control's own click handler ran)
  const closeAfter = (e: MouseEvent) => {
    if ((e.target as Element | null)?.closest?.('[data-closes-menu]')) {
      menu?.close(true); // (the item is gone with the menu: the focus goes back to ⋮, as after a menu item)
    }
  };
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
            ref={(el) => observer.observe(el)}
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
          api={(a) => {
            menu = a;
          }}
        >
          <For each={inMenu()}>
            {(it) => (
              <div class="tb-menu-item" data-tb={it.id} ref={(el) => el.addEventListener('click', closeAfter)}>
                {it.render()}
              </div>
            )}
          </For>
        </Popover>
      </Show>
    </div>
  );
}
