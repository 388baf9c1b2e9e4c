// Types of rerun-report.mjs for the TypeScript that imports it (its unit test).
export interface JsonTest {
  fullName: string;
  status: string;
}
export interface JsonFile {
  name: string;
  status: string;
  message?: string;
  assertionResults: JsonTest[];
}
export interface JsonReport {
  testResults: JsonFile[];
}
export interface Outcome {
  file: string;
  test: string | null;
  again: 'passed' | 'failed' | 'not run';
}
export function failures(report: JsonReport, root: string): { file: string; test: string | null }[];
export function failedFiles(report: JsonReport, root: string): string[];
export function outcomes(first: JsonReport, rerun: JsonReport | null, root: string): Outcome[];
export function reportLines(list: Outcome[]): string[];
