/** An unusable input file or output path: one line naming it and why; the command exits 2 (as for bad flags). */
export class InputError extends Error {
  override name = 'InputError';
}
