/** Types of bench/corpus.mjs, for the test that checks its verdicts. */
export interface CorpusRecord {
  seq: number;
  time: number;
  kind: 'receive' | 'post';
  frameUrl: string;
  origin: string;
  targetOrigin?: string;
  data: unknown;
}
export interface Corpus {
  valid: CorpusRecord[];
  invalid: CorpusRecord[];
  foreign: CorpusRecord[];
  mixed: CorpusRecord[];
}
export const TENANT: string;
export const HOST: string;
export function buildCorpus(
  types: readonly string[],
  examples: Readonly<Record<string, Record<string, unknown>>>,
  n?: number,
): Corpus;
