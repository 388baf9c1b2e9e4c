import { describe, expect, it } from 'vitest';
import type { Issue, Verdict } from './classify.ts';
import { applySenderIssues } from './pairs.ts';

const issue = (rule: string, path: string, extra: Partial<Issue> = {}): Issue => ({
  rule,
  severity: 'warning',
  path,
  message: `${rule} at ${path}`,
  ...extra,
});
const rec = (verdict: Verdict, issues: Issue[]) => ({ verdict, issues });

describe('applySenderIssues', () => {
  it('leaves a delivery whose issues are its post’s as they were (the same list)', () => {
    const issues = [issue('payload.type', 'payload.path'), issue('envelope.extra', 'x')];
    const delivery = rec('valid', issues);
    applySenderIssues(delivery, rec('valid', [issue('payload.type', 'payload.path'), issue('envelope.extra', 'x')]));
    expect(delivery.issues).toBe(issues);
    expect(delivery.verdict).toBe('valid');
  });

  it('shows the post’s own issues on a valid delivery, marked as the sender’s, with their verdict', () => {
    const bad = issue('origin.target-wildcard', 'targetOrigin', { severity: 'error' });
    const delivery = rec('valid', []);
    applySenderIssues(delivery, rec('invalid', [bad]));
    expect(delivery.issues).toEqual([{ ...bad, sender: true }]);
    expect(delivery.verdict).toBe('invalid');
  });

  it('adds only the post’s issues the delivery does not have, after its own', () => {
    const delivery = rec('valid', [issue('a', 'p')]);
    applySenderIssues(delivery, rec('valid', [issue('b', 'q'), issue('a', 'p')]));
    expect(delivery.issues.map((i) => [i.rule, i.sender ?? false])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('drops sender issues the post no longer has', () => {
    const delivery = rec('invalid', [issue('a', 'p', { sender: true, severity: 'error' })]);
    applySenderIssues(delivery, rec('valid', []));
    expect(delivery.issues).toEqual([]);
    expect(delivery.verdict).toBe('valid');
  });

  it('leaves a delivery already showing its post’s issues as it was (no change to publish)', () => {
    const post = rec('invalid', [issue('a', 'p'), issue('session.action-before-ready', 'type', { severity: 'error' })]);
    const delivery = rec('valid', [issue('a', 'p')]);
    applySenderIssues(delivery, post);
    const shown = delivery.issues;
    expect(shown.map((i) => [i.rule, i.sender ?? false])).toEqual([
      ['a', false],
      ['session.action-before-ready', true],
    ]);
    expect(delivery.verdict).toBe('invalid');
    applySenderIssues(delivery, post);
    expect(delivery.issues).toBe(shown);
    // The post's issue changed (another message): shown anew.
    applySenderIssues(
      delivery,
      rec('invalid', [issue('session.action-before-ready', 'type', { severity: 'error', message: 'm' })]),
    );
    expect(delivery.issues).not.toBe(shown);
    expect(delivery.issues.at(-1)).toMatchObject({ message: 'm', sender: true });
  });

  it('gives the same issues for long lists as for short ones', () => {
    const own = Array.from({ length: 40 }, (_, k) => issue(`r${k}`, 'p'));
    const post = Array.from({ length: 40 }, (_, k) => issue(`r${k + 20}`, 'p'));
    const delivery = rec('valid', own);
    applySenderIssues(delivery, rec('valid', post));
    expect(delivery.issues.map((i) => i.rule)).toEqual(Array.from({ length: 60 }, (_, k) => `r${k}`));
    expect(delivery.issues.filter((i) => i.sender).length).toBe(20);
    const shown = delivery.issues;
    applySenderIssues(delivery, rec('valid', post));
    expect(delivery.issues).toEqual(shown);
  });

  it('leaves foreign records alone', () => {
    const delivery = rec('foreign', []);
    applySenderIssues(delivery, rec('invalid', [issue('a', 'p', { severity: 'error' })]));
    expect(delivery).toEqual(rec('foreign', []));
  });
});
