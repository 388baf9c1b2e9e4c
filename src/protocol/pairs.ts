/**
 * A post and its delivery are two observations of one message. Pure.
 *
 * - A delivery shows the issues of its post that it does not have itself (the sender's: its target origin,
 *   the session rules counted at the post), marked `sender`, so a delivery of an invalid post is never
 *   "valid": its verdict is that of both issue lists.
 * - Counts by verdict count messages: a delivery paired with its post is not counted (its post is, once).
 */
import { verdictOf, type Issue, type Verdict } from './classify.ts';

/** A delivery's issues: its own, then those of its post that it does not already have (same rule and path), marked. */
export function withSenderIssues(delivery: readonly Issue[], post: readonly Issue[]): Issue[] {
  const own = delivery.filter((i) => !i.sender);
  const have = new Set(own.map((i) => `${i.rule}\n${i.path}`));
  const out = own.slice();
  for (const i of post) {
    if (!i.sender && !have.has(`${i.rule}\n${i.path}`)) {
      out.push({ ...i, sender: true });
    }
  }
  return out;
}

/** Apply the post's issues to its delivery (records of the same shape): issues and verdict. */
export function applySenderIssues(
  delivery: { verdict: Verdict; issues: Issue[] },
  post: { verdict: Verdict; issues: readonly Issue[] },
): void {
  if (delivery.verdict === 'foreign' || post.verdict === 'foreign') {
    return;
  }
  const issues = withSenderIssues(delivery.issues, post.issues);
  if (issues.length === delivery.issues.length && issues.every((x, k) => x === delivery.issues[k])) {
    return;
  }
  delivery.issues = issues;
  delivery.verdict = verdictOf(issues);
}

/** Whether a record counts in the counts by verdict: not a navigation, and not a delivery paired with its post. */
export function countsAsMessage(r: { kind?: string; pairedWith?: number; navigation?: boolean }): boolean {
  return countsAsMessageRead(!!r.navigation, r.kind, r);
}

/** `countsAsMessage`, given what a caller already read of the record (whether a navigation, its kind). */
export function countsAsMessageRead(nav: boolean, kind: string | undefined, r: { pairedWith?: number }): boolean {
  return !nav && !(kind === 'receive' && r.pairedWith !== undefined);
}
