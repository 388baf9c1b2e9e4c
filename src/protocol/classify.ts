// STUB — being written by the lead. Signatures are final.
import type { CaptureRecord } from './record.ts';

export type Verdict = 'valid' | 'invalid' | 'foreign';
export type Severity = 'error' | 'warning' | 'info';
export interface Issue { rule: string; severity: Severity; path: string; message: string }
export interface Classification { verdict: Verdict; issues: Issue[] }
export interface ClassifyContext {
  /** The tenant (embed) origin, e.g. "https://acme.example.com"; null/undefined when unknown. */
  tenantOrigin?: string | null;
}
/** What classify needs of a record; a bare `{data}` works for library users. */
export type ClassifyInput = Partial<Omit<CaptureRecord, 'data'>> & { data: unknown };

/** Stateless classification of one record against the protocol. Pure; never throws. */
export function classify(record: ClassifyInput, context: ClassifyContext = {}): Classification {
  const d = record.data as { source?: unknown } | null;
  if (!d || typeof d !== 'object' || d.source !== 'svc-embed') return { verdict: 'foreign', issues: [] };
  return { verdict: 'valid', issues: [] };
}
