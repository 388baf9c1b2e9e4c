/**
 * The panel's one popover (⚙ Settings, the filter menus, the toolbars' overflow menus): a button and, while open, a
 * panel anchored under it and kept inside the window (moved left, or above the button, to fit; never wider or taller
 * than the window). It closes on Esc, on a click outside it, on its ✕, and when its owner says so (`api.close`);
 * Esc and ✕ give the focus back to its button.
 *
 * Esc is handled by one listener on the window in the capture phase, installed when this module loads, before any
 * component's: it closes the innermost open popover and stops the key there, so that neither the panel's own keys
 * (Layout: Esc closes the details) nor DevTools (its listener on the panel's document opens the Console drawer on
 * Esc) see it.
 */
import { createSignal, createUniqueId, onCleanup, Show, type JSX } from 'solid-js';
import { Icon } from './icons.tsx';

interface Open {
  close(focusButton: boolean): void;
}
/** The open popovers, outermost first (a menu inside the overflow menu opens over it). */
const openStack: Open[] = [];

if (typeof window !== 'undefined') {
  window.addEventListener(
    'keydown',
    (e) => {
      const top = openStack[openStack.length - 1];
      if (e.key === 'Escape' && top) {
        e.preventDefault();
        e.stopImmediatePropagation();
        top.close(true);
      }
    },
    true,
  );
}

export interface PopoverApi {
  /** Close; `focusButton`: the focus goes back to the popover's button (a menu item that acted and went). */
  close(focusButton?: boolean): void;
  open(): void;
  isOpen(): boolean;
}

export interface PopoverProps {
  /** The button's content (an icon and a word). */
  button: JSX.Element;
  buttonClass?: string;
  buttonTitle?: string;
  /** The button's accessible name when its content is an icon only. */
  buttonLabel?: string;
  /** aria-pressed of the button (a filter menu with a selection). */
  pressed?: () => boolean;
  disabled?: () => boolean;
  /** The panel's accessible name and title line. */
  label: string;
  /** Show the title line with the label and a ✕ (dialogs; menus go without). */
  titled?: boolean;
  class?: string;
  panelClass?: string;
  role?: 'dialog' | 'menu';
  api?: (api: PopoverApi) => void;
  /** The panel's id (else a unique one). */
  panelId?: string;
  children: JSX.Element;
}

const MARGIN = 4;

/**
 * The panel under its button, kept inside the window: moved left to fit, or above the button when there is more
 * room there (and less than 160 px below); never wider or taller than the window.
 *
 * Its width is measured at the window's left edge: a fixed panel placed at `left` is at most as wide as the room
 * right of it, so measured where it was, a wide menu would be placed a little further left each time it was
 * measured, and slide across the window a few pixels a frame.
 */
function placePanel(panel: HTMLDivElement, button: HTMLButtonElement) {
  const a = button.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  panel.style.maxWidth = `${vw - 2 * MARGIN}px`;
  panel.style.left = `${MARGIN}px`;
  const w = panel.getBoundingClientRect().width;
  const left = Math.max(MARGIN, Math.min(a.left, vw - w - MARGIN));
  const below = vh - a.bottom - 2 * MARGIN;
  const above = a.top - 2 * MARGIN;
  const up = below < 160 && above > below;
  panel.style.left = `${left}px`;
  panel.style.top = up ? '' : `${a.bottom + 2}px`;
  panel.style.bottom = up ? `${vh - a.top + 2}px` : '';
  panel.style.maxHeight = `${Math.max(80, up ? above : below)}px`;
}

export function Popover(p: PopoverProps) {
  const [open, setOpen] = createSignal(false);
  const id = p.panelId ?? `pop-${createUniqueId()}`;
  let button!: HTMLButtonElement;
  let panel: HTMLDivElement | undefined;
  let observer: ResizeObserver | undefined;

  const entry: Open = { close: (focus) => close(focus) };
  const place = () => {
    if (panel && button) {
      placePanel(panel, button);
    }
  };
  const onDown = (e: PointerEvent) => {
    const t = e.target as Node;
    if (panel && !panel.contains(t) && !button.contains(t)) {
      close(false);
    }
  };
  const onResize = () => place();
  function close(focusButton: boolean) {
    if (!open()) {
      return;
    }
    setOpen(false);
    const i = openStack.indexOf(entry);
    if (i >= 0) {
      openStack.splice(i);
    }
    observer?.disconnect();
    observer = undefined;
    panel = undefined;
    document.removeEventListener('pointerdown', onDown, true);
    window.removeEventListener('resize', onResize);
    if (focusButton) {
      button.focus({ preventScroll: true });
    }
  }
  const show = () => {
    if (open()) {
      return;
    }
    setOpen(true);
    openStack.push(entry);
    document.addEventListener('pointerdown', onDown, true);
    window.addEventListener('resize', onResize);
  };
  onCleanup(() => close(false));
  p.api?.({ close: (focusButton = false) => close(focusButton), open: show, isOpen: open });

  const mountPanel = (el: HTMLDivElement) => {
    panel = el;
    // Placed before it is painted (a ResizeObserver reports after layout, before paint), and again whenever its
    // content changes its size.
    observer = new ResizeObserver(place);
    observer.observe(el);
  };
  return (
    <div class={`popover-anchor${p.class ? ` ${p.class}` : ''}`}>
      <button
        ref={button}
        type="button"
        class={p.buttonClass ?? 'tool'}
        title={p.buttonTitle}
        aria-label={p.buttonLabel}
        aria-haspopup={p.role === 'menu' ? 'menu' : 'dialog'}
        aria-expanded={open()}
        aria-controls={id}
        aria-pressed={p.pressed ? p.pressed() : undefined}
        disabled={p.disabled?.()}
        onClick={() => (open() ? close(false) : show())}
      >
        {p.button}
      </button>
      <Show when={open()}>
        <div
          ref={mountPanel}
          id={id}
          class={`popover${p.panelClass ? ` ${p.panelClass}` : ''}`}
          role={p.role ?? 'dialog'}
          aria-label={p.label}
        >
          <Show when={p.titled}>
            <div class="popover-title">
              <span>{p.label}</span>
              <button
                type="button"
                class="popover-close"
                aria-label={`Close ${p.label} (Esc)`}
                title="Close (Esc)"
                onClick={() => close(true)}
              >
                <Icon name="close" />
              </button>
            </div>
          </Show>
          {p.children}
        </div>
      </Show>
    </div>
  );
}
