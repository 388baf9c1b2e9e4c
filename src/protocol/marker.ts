/** The svc-embed source marker: the one check done before any other work (tiny: capture scripts import it). */
export const SOURCE = 'svc-embed';

/** Is this an svc-embed message (has the source marker)? Cheap; never throws. */
export function isSvcEmbed(data: unknown): boolean {
  try {
    return data !== null && typeof data === 'object' && (data as { source?: unknown }).source === SOURCE;
  } catch {
    return false;
  }
}
