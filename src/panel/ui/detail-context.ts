/** What a tab of the detail pane (Detail.tsx) is given: the selected record and where it is in the log. */
import type { JSX } from 'solid-js';
import type { ClassifiedRecord } from '../../shared/messages.ts';

export interface DetailContext {
  index: number;
  record: ClassifiedRecord;
}
export interface DetailTab {
  id: string;
  label: (ctx: DetailContext) => string;
  render: (ctx: DetailContext) => JSX.Element;
}
