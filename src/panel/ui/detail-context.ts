/** What a tab of the detail pane (Detail.tsx) is given: the selected record and where it is in the log. */
import type { JSX } from 'solid-js';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { IconName } from './icons.tsx';

export interface DetailContext {
  index: number;
  record: ClassifiedRecord;
}
export interface DetailTab {
  id: string;
  label: (ctx: DetailContext) => string;
  /** Shown before the label, and alone where the pane is too narrow for the labels. */
  icon?: IconName;
  render: (ctx: DetailContext) => JSX.Element;
}
