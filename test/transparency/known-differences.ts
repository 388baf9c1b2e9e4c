/**
 * What capture in `full` mode may change for a page, because the platform gives no way to keep it: the
 * machine-readable mirror of the README's list of what cannot be kept (section "What it does to the
 * inspected page, and what it cannot see"). The transparency suite (test/e2e/transparency-*.test.ts) fails
 * on every other difference between a page without the extension and the same page with capture on.
 *
 * Rules for an entry:
 * - only a difference the platform imposes (no hook exists that would keep it), never one a fix could remove;
 * - `readme` is a sentence that appears verbatim in README.md (a test checks it), naming the expression and
 *   the library behaviours it affects;
 * - `full`, when given, pins what the page sees with capture on, so that a changed difference fails again.
 * Receive-only mode has no entries: with it the page must see no difference at all (issue 13).
 *
 * Starts empty on purpose: the suite's first job is to show every difference there is.
 */
export interface KnownDifference {
  /** `windows` (window-checks.ts) or `libraries` (library-cases.ts). */
  suite: 'windows' | 'libraries';
  /** The observation's exact name as the suite reports it (`host: frames[0] === xoF.contentWindow`, `post-robot › host`). */
  name: string;
  /** What the page observes with capture in full mode, when pinned. */
  full?: string | string[];
  /** The README's sentence for it, verbatim. */
  readme: string;
}

export const KNOWN_DIFFERENCES: KnownDifference[] = [];
