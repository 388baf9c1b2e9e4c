import { describe, expect, it } from 'vitest';
import { LeaveGuard } from './leave-guard.ts';

describe('the frame’s pagehide listener, only while it holds something', () => {
  it('listens once however often the frame holds, and not at all once released', () => {
    const target = new EventTarget();
    let left = 0;
    const guard = new LeaveGuard(target, () => left++);
    target.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(0); // nothing held: no listener
    guard.hold();
    guard.hold();
    expect(guard.holding).toBe(true);
    target.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(1); // one listener, not two
    guard.release();
    expect(guard.holding).toBe(false);
    target.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(1);
    guard.hold();
    target.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(2);
  });

  it('says whether the browser sent the pagehide (a page may dispatch its own)', () => {
    const target = new EventTarget();
    const heard: boolean[] = [];
    new LeaveGuard(target, (trusted) => heard.push(trusted)).hold();
    target.dispatchEvent(new Event('pagehide'));
    expect(heard).toEqual([false]);
  });

  it('hands over at the document’s freeze too, while it holds something', () => {
    const win = new EventTarget();
    const doc = new EventTarget();
    let left = 0;
    const guard = new LeaveGuard(win, () => left++, doc);
    doc.dispatchEvent(new Event('freeze'));
    guard.hold();
    doc.dispatchEvent(new Event('freeze'));
    guard.release();
    doc.dispatchEvent(new Event('freeze'));
    expect(left).toBe(1);
  });
});
