/**
 * A collapsible, copyable JSON tree (ARIA tree pattern: tree / treeitem / group, roving tabindex; arrows move,
 * Right/Left expand/collapse, Enter/Space toggles, Ctrl/Cmd+C copies the focused value). Values are text only.
 * `highlight` marks the fields issues point at (jsontree-model.ts `highlightOf`): each is opened to and marked,
 * a missing field on its parent.
 */
import { createSignal, For, Show } from 'solid-js';
import { copyText, describe, isAncestorPath, valueAt, type TreeHighlight, type TreeNode } from './jsontree-model.ts';
import { copyToClipboard } from './clipboard.ts';
import { Icon } from './icons.tsx';

export function JsonTree(p: {
  value: unknown;
  label: string;
  onCopied?: (what: string) => void;
  highlight?: readonly TreeHighlight[];
}) {
  let root!: HTMLUListElement;
  const items = () => [...root.querySelectorAll<HTMLElement>('[role="treeitem"]')];
  const focusItem = (el: HTMLElement | undefined) => {
    if (!el) {
      return;
    }
    for (const it of items()) {
      it.tabIndex = -1;
    }
    el.tabIndex = 0;
    el.focus();
  };
  const copyNode = (path: string) => {
    const text = copyText(valueAt(p.value, path));
    void copyToClipboard(text).then((ok) => p.onCopied?.(ok ? `Copied ${path}` : 'Copy failed'));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const cur = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!cur) {
      return;
    }
    const all = items();
    const i = all.indexOf(cur);
    const expanded = cur.getAttribute('aria-expanded');
    const toggle = () => cur.querySelector<HTMLElement>(':scope > .twisty')?.click();
    switch (e.key) {
      case 'ArrowDown':
        focusItem(all[i + 1]);
        break;
      case 'ArrowUp':
        focusItem(all[i - 1]);
        break;
      case 'Home':
        focusItem(all[0]);
        break;
      case 'End':
        focusItem(all[all.length - 1]);
        break;
      case 'ArrowRight':
        if (expanded === 'false') {
          toggle();
        } else if (expanded === 'true') {
          focusItem(
            cur.parentElement?.querySelector<HTMLElement>(':scope > [role="group"] > li > [role="treeitem"]') ??
              undefined,
          );
        }
        break;
      case 'ArrowLeft':
        if (expanded === 'true') {
          toggle();
        } else {
          focusItem(
            cur.parentElement?.parentElement?.closest('li')?.querySelector<HTMLElement>(':scope > [role="treeitem"]') ??
              undefined,
          );
        }
        break;
      case 'Enter':
      case ' ':
        if (expanded !== null) {
          toggle();
        }
        break;
      case 'c':
      case 'C':
        if ((e.ctrlKey || e.metaKey) && !String(window.getSelection() ?? '')) {
          copyNode(cur.dataset.path ?? '$');
          break;
        }
        return;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };
  const top = () => describe(p.value, '$', '');
  return (
    <ul
      class="tree"
      role="tree"
      aria-label={p.label}
      ref={root}
      onKeyDown={onKeyDown}
      onFocusIn={(e) => {
        const it = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
        if (it) {
          for (const x of items()) {
            x.tabIndex = x === it ? 0 : -1;
          }
        }
      }}
    >
      <Item node={top()} level={1} pos={1} size={1} first copy={copyNode} hl={() => p.highlight ?? []} />
    </ul>
  );
}

let groupIds = 0;

function Item(p: {
  node: TreeNode;
  level: number;
  pos: number;
  size: number;
  first?: boolean;
  copy: (path: string) => void;
  hl: () => readonly TreeHighlight[];
}) {
  const n = p.node;
  const expandable = !!n.children && n.childCount > 0;
  const leadsToMark = () => p.hl().some((h) => isAncestorPath(n.path, h.path));
  const marks = () => p.hl().filter((h) => h.path === n.path);
  const [open, setOpen] = createSignal(expandable && ((p.level <= 3 && n.childCount <= 50) || leadsToMark()));
  const [limit, setLimit] = createSignal(200);
  const all = () => (open() && n.children ? n.children() : []);
  const kids = () => all().slice(0, limit());
  const groupId = `tree-group-${++groupIds}`;
  /** The value as the line shows it: an open object or array by its size, its children being shown below. */
  const shown = () =>
    expandable && open() && (n.kind === 'object' || n.kind === 'array')
      ? n.kind === 'array'
        ? `Array(${n.childCount})`
        : `{${n.childCount} ${n.childCount === 1 ? 'key' : 'keys'}}`
      : n.summary;
  /** The line's words as shown: key, value, and the fields an issue finds missing under it. */
  const line = () =>
    [
      `${n.key ? `${n.key}${n.key.endsWith('=>') ? ' ' : ': '}` : ''}${shown()}`,
      ...marks()
        .filter((h) => !h.exact)
        .map((h) => `missing: ${h.missing}`),
    ].join(' ');
  return (
    <li role="none">
      {/* The item is its own line; its children's group is beside it and owned by it, so that its name is the
          line a sighted user reads (key, value, what is missing), not every line under it. */}
      <div
        class="node"
        classList={{ 'hl-node': marks().length > 0 }}
        role="treeitem"
        aria-level={p.level}
        aria-setsize={p.size}
        aria-posinset={p.pos}
        aria-expanded={expandable ? open() : undefined}
        aria-owns={open() && expandable ? groupId : undefined}
        aria-label={`${line()}${marks().length ? ' (an issue points here)' : ''}`}
        tabIndex={p.first ? 0 : -1}
        data-path={n.path}
        data-highlight={marks().length ? (marks().some((h) => h.exact) ? 'field' : 'missing') : undefined}
        onDblClick={() => expandable && setOpen(!open())}
      >
        <span
          class="twisty"
          aria-hidden="true"
          onClick={(e) => {
            e.stopPropagation();
            if (expandable) {
              setOpen(!open());
            }
          }}
        >
          {expandable ? (open() ? '▾' : '▸') : ''}
        </span>
        <Show when={n.key}>
          <span class="key">{n.key}</span>
          <span class="colon">{n.key.endsWith('=>') ? ' ' : ': '}</span>
        </Show>
        <span class={`val k-${n.kind}`} title={n.title}>
          {shown()}
        </span>
        <button
          type="button"
          class="copy"
          tabIndex={-1}
          title={`Copy the value of ${n.path}`}
          aria-label={`Copy ${n.path}`}
          onClick={(e) => {
            e.stopPropagation();
            p.copy(n.path);
          }}
        >
          <Icon name="copy" />
        </button>
        <For each={marks().filter((h) => !h.exact)}>{(h) => <span class="hl-missing">missing: {h.missing}</span>}</For>
      </div>
      <Show when={open() && expandable}>
        <ul role="group" id={groupId}>
          <For each={kids()}>
            {(c, i) => <Item node={c} level={p.level + 1} pos={i() + 1} size={n.childCount} copy={p.copy} hl={p.hl} />}
          </For>
          <Show when={n.childCount > limit()}>
            <li role="none">
              <button type="button" class="link more" onClick={() => setLimit(limit() + 1000)}>
                … {n.childCount - limit()} more
              </button>
            </li>
          </Show>
        </ul>
      </Show>
    </li>
  );
}
