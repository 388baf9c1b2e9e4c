/**
 * A small menu (ARIA menu pattern) at a point of the panel: the timeline's row menu and column chooser. Kept
 * inside the panel's window (moved left/up when it would run past an edge). Arrows, Home and End move between the
 * enabled items, Enter or Space picks one, Esc or Tab closes it (Esc never reaches DevTools: see Timeline.tsx),
 * as does a click outside. A checkbox item keeps the menu open. The caller returns the focus where it belongs.
 */
import { For, onCleanup, onMount } from 'solid-js';
import './grid.css';

export interface MenuEntry {
  id: string;
  label: string;
  /** Why it cannot be picked (shown disabled, with this as its title). */
  disabled?: string;
  /** A checkbox item (menuitemcheckbox) and its state. */
  checked?: boolean;
}

export interface MenuProps {
  label: string;
  items: readonly MenuEntry[];
  x: number;
  y: number;
  onPick: (id: string) => void;
  onClose: () => void;
}

export function Menu(p: MenuProps) {
  let el!: HTMLDivElement;
  const enabled = () => [...el.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([aria-disabled="true"])')];
  const move = (delta: number | 'first' | 'last') => {
    const list = enabled();
    if (!list.length) {
      return;
    }
    const i = list.indexOf(document.activeElement as HTMLElement);
    const next =
      delta === 'first' ? 0 : delta === 'last' ? list.length - 1 : i < 0 ? 0 : (i + delta + list.length) % list.length;
    list[next].focus();
  };
  const pick = (it: MenuEntry) => {
    if (it.disabled) {
      return;
    }
    p.onPick(it.id);
    if (it.checked === undefined) {
      p.onClose();
    } else {
      // the items are made again with their new state: the focus stays on the one picked
      queueMicrotask(() => el.querySelector<HTMLElement>(`[data-id="${CSS.escape(it.id)}"]`)?.focus());
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const k = e.key;
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      move(k === 'ArrowDown' ? 1 : -1);
    } else if (k === 'Home' || k === 'End') {
      move(k === 'Home' ? 'first' : 'last');
    } else if (k === 'Escape' || k === 'Tab') {
      p.onClose();
    } else if (k === 'Enter' || k === ' ') {
      const id = (document.activeElement as HTMLElement | null)?.dataset.id;
      const it = p.items.find((x) => x.id === id);
      if (it) {
        pick(it);
      }
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  };
  const outside = (e: PointerEvent) => {
    if (!el.contains(e.target as Node)) {
      p.onClose();
    }
  };
  onMount(() => {
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth,
      vh = document.documentElement.clientHeight;
    el.style.left = `${Math.max(0, Math.min(p.x, vw - r.width - 2))}px`;
    el.style.top = `${Math.max(0, Math.min(p.y, vh - r.height - 2))}px`;
    el.style.visibility = 'visible';
    move('first');
    document.addEventListener('pointerdown', outside, true);
  });
  onCleanup(() => document.removeEventListener('pointerdown', outside, true));
  return (
    <div
      class="ei-menu"
      role="menu"
      aria-label={p.label}
      ref={el}
      tabIndex={-1}
      style={{ left: `${p.x}px`, top: `${p.y}px`, visibility: 'hidden' }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      <For each={p.items}>
        {(it) => (
          <div
            role={it.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
            class="ei-menu-item"
            data-id={it.id}
            tabIndex={-1}
            aria-checked={it.checked === undefined ? undefined : it.checked}
            aria-disabled={it.disabled ? true : undefined}
            title={it.disabled}
            onClick={() => pick(it)}
          >
            <span class="ei-menu-check" aria-hidden="true">
              {it.checked ? '✓' : ''}
            </span>
            {it.label}
          </div>
        )}
      </For>
    </div>
  );
}
