/**
 * An embed frame's address in its navigation record's detail: the URL itself, one part after another as it reads
 * (origin, path, `?`, each parameter), wrapping within the pane; a part an issue finds wrong is marked wrong with
 * the rule, a parameter an issue finds absent is added at the end, marked missing (address-parts.ts). `focusIssue`
 * (the Issues tab's path buttons) moves the focus to the part an issue marks.
 */
import { For, Show } from 'solid-js';
import { addressParts, type AddressIssue, type AddressPart } from './address-parts.ts';

const WORST = ['error', 'warning', 'info'];

export interface AddressViewApi {
  /** Focus the part issue `k` marks; false when none does. */
  focusIssue(k: number): boolean;
}

export function AddressView(p: { url: string; issues: readonly AddressIssue[]; api?: (a: AddressViewApi) => void }) {
  const parts = () => addressParts(p.url, p.issues) ?? [];
  let box: HTMLUListElement | undefined;
  p.api?.({
    focusIssue: (k) => {
      const el = box?.querySelector<HTMLElement>(`[data-issues~="${k}"]`);
      el?.scrollIntoView({ block: 'nearest' });
      el?.focus();
      return !!el?.isConnected;
    },
  });
  const severity = (part: AddressPart) =>
    WORST.find((s) => part.issues.some((n) => p.issues[n].severity === s)) ?? 'info';
  const mark = (part: AddressPart) =>
    `${part.kind === 'absent' ? 'missing' : severity(part) === 'info' ? 'note' : 'wrong'}: ${part.issues
      .map((n) => p.issues[n].rule)
      .join(', ')}`;
  return (
    <ul class="address" aria-label="The embed frame's address, part by part" ref={box}>
      <For each={parts()}>
        {(part, k) => (
          <li
            // (one class string: Solid's class and classList on one element overwrite each other)
            class={`ap ap-${part.kind}${part.issues.length ? ` ap-marked s-${severity(part)}` : ''}`}
            data-issues={part.issues.join(' ')}
            tabIndex={part.issues.length ? -1 : undefined}
            title={part.issues.map((n) => p.issues[n].message).join('\n') || undefined}
          >
            <Show when={part.kind === 'param' && parts()[k() - 1]?.kind !== 'param'}>
              <span class="ap-sep" aria-hidden="true">
                ?
              </span>
            </Show>
            <Show when={part.kind === 'param' && parts()[k() - 1]?.kind === 'param'}>
              <span class="ap-sep" aria-hidden="true">
                &amp;
              </span>
            </Show>
            <code class="ap-text">{part.text}</code>
            <Show when={part.issues.length}>
              <span class="ap-mark">{mark(part)}</span>
            </Show>
          </li>
        )}
      </For>
    </ul>
  );
}
