/**
 * What a feature adds to the timeline's row menu (timeline/row-menu.ts): the act feature's copy as code and
 * replay. The composition root provides it (app/PanelRoot.tsx); without it the menu offers the shared actions only.
 */
import { createContext, useContext } from 'solid-js';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { FeatureItems } from '../timeline/row-menu.ts';

export interface RowMenuFeature {
  /** The feature's items for a record. */
  items(r: ClassifiedRecord): FeatureItems;
  /** Run one of them; resolves to what the panel says of it ("Code copied", "Not sent: …"). */
  run(id: 'copy-code' | 'replay', r: ClassifiedRecord): Promise<string>;
}

export const RowMenuContext = createContext<RowMenuFeature>();
export const useRowMenuFeature = (): RowMenuFeature | undefined => useContext(RowMenuContext);
