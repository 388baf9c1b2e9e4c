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
  const out: Issue[] = [];
  for (const i of delivery) {
    if (!i.sender) {
      out.push(i);
    }
  }
  const own = out.length;
  const have = own * post.length > SCAN_MAX ? new Set(out.map(keyOf)) : null;
  for (const i of post) {
    if (!i.sender && !(have ? have.has(keyOf(i)) : hasRuleAt(out, own, i))) {
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
  if (delivery.verdict === 'foreign' || post.verdict === 'foreign' || upToDate(delivery.issues, post.issues)) {
    return;
  }
  const issues = withSenderIssues(delivery.issues, post.issues);
  if (issues.length === delivery.issues.length && issues.every((x, k) => x === delivery.issues[k])) {
    return;
  }
  delivery.issues = issues;
  delivery.verdict = verdictOf(issues);
}

/** Issue lists up to this product of lengths are compared by scanning, larger ones through a set of keys. */
const SCAN_MAX = 256;
const keyOf = (i: Issue): string => `${i.rule}\n${i.path}`;

/** Whether one of the first `n` issues of `list` has the rule and path of `i`. */
function hasRuleAt(list: readonly Issue[], n: number, i: Issue): boolean {
  for (let k = 0; k < n; k++) {
    if (list[k].rule === i.rule && list[k].path === i.path) {
      return true;
    }
  }
  return false;
}

/**
 * Whether `withSenderIssues(delivery, post)` would give the delivery's issues back as they are (its own, then the
 * post's it lacks, each as marked before; an issue's every field compared), checked without allocating: a pair is
 * shared again each time either half is judged, and its lists rarely change.
 */
function upToDate(delivery: readonly Issue[], post: readonly Issue[]): boolean {
  let own = 0;
  while (own < delivery.length && !delivery[own].sender) {
    own++;
  }
  if (own * post.length > SCAN_MAX) {
    return false;
  }
  let k = own;
  for (const p of post) {
    if (p.sender || hasRuleAt(delivery, own, p)) {
      continue;
    }
    const d = delivery[k++];
    if (!d?.sender || d.rule !== p.rule || d.path !== p.path || d.severity !== p.severity || d.message !== p.message) {
      return false;
    }
  }
  return k === delivery.length;
}

/** Whether a record counts in the counts by verdict: not a navigation, and not a delivery paired with its post. */
export function countsAsMessage(r: { kind?: string; pairedWith?: number; navigation?: boolean }): boolean {
  return countsAsMessageRead(!!r.navigation, r.kind, r);
}

/** `countsAsMessage`, given what a caller already read of the record (whether a navigation, its kind). */
export function countsAsMessageRead(nav: boolean, kind: string | undefined, r: { pairedWith?: number }): boolean {
  return !nav && !(kind === 'receive' && r.pairedWith !== undefined);
}
