/**
 * The panel's own icons, as inline SVG drawn in `currentColor`: they render the same on every system, where font
 * glyphs (⧉, 📄, ⚙…) depend on the fonts installed and show as empty boxes on a bare Linux. Each icon is a 16×16
 * drawing; `Icon` renders one at the text's size, hidden from assistive technology (its button says what it does).
 */
import type { JSX } from 'solid-js';

const PATHS = {
  close: 'M4 4l8 8M12 4l-8 8',
  more: 'M8 3.5v.01M8 8v.01M8 12.5v.01',
  chevronDown: 'M4 6l4 4 4-4',
  chevronRight: 'M6 4l4 4-4 4',
  back: 'M10 3L5 8l5 5',
  clear: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M4.2 4.2l7.6 7.6',
  settings:
    'M8 5.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  copy: 'M5.5 5.5h7v7h-7zM3.5 10.5v-7h7',
  file: 'M4 1.5h5l3 3v10H4zM9 1.5v3h3',
  message: 'M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z',
  issues: 'M8 2l6 11H2zM8 6.5v3M8 11.5v.01',
  related: 'M6.5 9.5l3-3M7 4.5l1.2-1.2a2.5 2.5 0 0 1 3.5 3.5L10.5 8M9 11.5l-1.2 1.2a2.5 2.5 0 0 1-3.5-3.5L5.5 8',
  timing: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3l2 1.5',
  code: 'M5.5 4.5L2 8l3.5 3.5M10.5 4.5L14 8l-3.5 3.5',
  list: 'M2.5 4h11M2.5 8h11M2.5 12h11',
} as const;

export type IconName = keyof typeof PATHS | 'dot';

export function Icon(p: { name: IconName; class?: string; title?: string }): JSX.Element {
  return (
    <svg
      class={`icon${p.class ? ` ${p.class}` : ''}`}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      data-icon={p.name}
    >
      {p.name === 'dot' ? (
        <circle cx="8" cy="8" r="4.5" fill="currentColor" />
      ) : (
        <path
          d={PATHS[p.name]}
          fill="none"
          stroke="currentColor"
          stroke-width="1.5"
          stroke-linecap="round"
          stroke-linejoin="round"
        />
      )}
    </svg>
  );
}
