/** A row's parts that hold no state: the kind icon, and the hidden row that warms the grid's fonts. */

/**
 * A hidden row with every font, glyph and badge style a real row uses, laid out when the panel opens: the font
 * lookups (fallback glyphs such as arrows included) and the first shaping then happen before the first records
 * arrive rather than in their first render. Not in the accessibility tree; no role.
 */
export function WarmRow() {
  return (
    <div class="row odd warm" aria-hidden="true">
      <div class="c-time">+0.123 s −0:01.5</div>
      <div class="c-delta">+840 ms</div>
      <div class="c-clock">09:41:07.123</div>
      <div class="c-dir d-event">
        ↑↓⟳·
        <KindIcon kind="post" />
      </div>
      <div class="c-kind">post receive nav</div>
      <div class="c-type">view dashboard-loaded</div>
      <div class="c-surface">dashboard</div>
      <div class="c-frame">localhost:5173/embed/app</div>
      <div class="c-origin">127.0.0.1:5173 → localhost *</div>
      <div class="c-target">https://localhost:5173</div>
      <div class="c-verdict">
        <span class="badge b-valid">valid</span>
        <span class="badge b-invalid">invalid</span>
        <span class="count s-error">2</span>
        <span class="badge b-dropped">threw</span>
      </div>
      <div class="c-size">1.2 kB 999 B✂</div>
    </div>
  );
}

/** The kind as an icon (SVG, no font needed): a post leaves its frame (↗), a delivery arrives (↙). */
export function KindIcon(p: { kind: string }) {
  return (
    <svg class={`kind-ico k-${p.kind}`} viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
      <path
        d={p.kind === 'receive' ? 'M8.5 1.5 2 8M2 3.5V8h4.5' : p.kind === 'post' ? 'M1.5 8.5 8 2M3.5 2H8v4.5' : ''}
        fill="none"
        stroke="currentColor"
        stroke-width="1.6"
      />
    </svg>
  );
}
