/**
 * The right-click menu of a timeline row, as a model: which actions it offers for a record, which are disabled
 * and why, the filter each "filter by" action sets, and the plain JSON "copy as JSON" puts on the clipboard.
 * Pure (unit-tested in node); ui/timeline-menus.tsx shows it and runs the actions, the act feature adds its own
 * (copy as code, replay) through ui/row-menu-context.ts.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { decode, shortType } from '../log/protocol.ts';
import type { RecordMeta } from '../log/meta.ts';
import type { FilterState } from './filters.ts';

export type RowActionId =
  | 'copy-json'
  | 'copy-code'
  | 'filter-type'
  | 'filter-frame'
  | 'filter-origin'
  | 'replay'
  | 'related';

export interface RowMenuItem {
  id: RowActionId;
  label: string;
  /** Why the action cannot run on this record (the item is shown disabled, with this as its title). */
  disabled?: string;
}

/** What a feature says of its actions on a record (absent: the feature is not there, the item is not shown). */
export interface FeatureItems {
  copyCode?: { label: string; disabled?: string };
  replay?: { label: string; disabled?: string };
}

/** The menu of a record, in order. */
export function rowMenuItems(r: ClassifiedRecord, m: RecordMeta, features: FeatureItems = {}): RowMenuItem[] {
  const items: RowMenuItem[] = [{ id: 'copy-json', label: 'Copy as JSON' }];
  if (features.copyCode) {
    items.push({ id: 'copy-code', ...features.copyCode });
  }
  items.push(
    {
      id: 'filter-type',
      label: m.type ? `Show only ${shortType(m.type)}` : 'Show only this type',
      disabled: m.type ? undefined : 'not an svc-embed message: it has no type',
    },
    { id: 'filter-frame', label: 'Show only this frame' },
    { id: 'filter-origin', label: `Show only from ${r.origin}` },
  );
  if (features.replay) {
    items.push({ id: 'replay', ...features.replay });
  }
  items.push({ id: 'related', label: 'Show related' });
  return items;
}

/** The filters a "filter by" action sets (the other filters stay as they are). */
export function filterPatch(
  id: 'filter-type' | 'filter-frame' | 'filter-origin',
  r: ClassifiedRecord,
  m: RecordMeta,
): Partial<FilterState> {
  switch (id) {
    case 'filter-type':
      return { types: m.type ? [m.type] : [] };
    case 'filter-frame':
      return { frames: [r.frameUrl] };
    case 'filter-origin':
      return { origins: [r.origin] };
  }
}

/**
 * The message as plain JSON, as the page's code would have seen it: the capture encoding (`$ei` tags) decoded;
 * what JSON cannot carry is written as JSON can (a Map as an object of its entries when its keys are strings, else
 * as entry pairs; a Set as an array; a bigint as a string; a Date as its ISO string; undefined left out).
 */
export function plainJson(data: unknown): string {
  const value = decode(data);
  try {
    return stringify(value, null);
  } catch {
    // a circular value (the encoding keeps cycles as references): each object is written once
    return stringify(value, new WeakSet());
  }
}
function stringify(value: unknown, seen: WeakSet<object> | null): string {
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v === 'bigint') {
        return v.toString();
      }
      if (v && typeof v === 'object') {
        if (seen?.has(v)) {
          return '[Circular]';
        }
        seen?.add(v);
        if (v instanceof Map) {
          const entries = [...v.entries()];
          return entries.every(([k]) => typeof k === 'string') ? Object.fromEntries(entries) : entries;
        }
        if (v instanceof Set) {
          return [...v];
        }
        if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
          return Array.from(v as unknown as ArrayLike<number>);
        }
      }
      return v;
    },
    2,
  );
  return text ?? 'null';
}
