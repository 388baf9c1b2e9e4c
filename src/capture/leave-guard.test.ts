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

  it('listens again after a document rewrite erased its listeners, only while it holds something', () => {
    // A stand-in for a window whose listeners a document.open() erases (rewrite.ts): a new target, the same guard.
    let win = new EventTarget();
    let doc = new EventTarget();
    const targets = {
      addEventListener: (...a: Parameters<EventTarget['addEventListener']>) => win.addEventListener(...a),
      removeEventListener: (...a: Parameters<EventTarget['removeEventListener']>) => win.removeEventListener(...a),
    };
    const docs = {
      addEventListener: (...a: Parameters<EventTarget['addEventListener']>) => doc.addEventListener(...a),
      removeEventListener: (...a: Parameters<EventTarget['removeEventListener']>) => doc.removeEventListener(...a),
    };
    let left = 0;
    const guard = new LeaveGuard(targets, () => left++, docs);
    const erase = () => {
      win = new EventTarget();
      doc = new EventTarget();
    };
    guard.hold();
    erase();
    win.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(0); // erased
    guard.renew();
    guard.renew(); // (the same listener again: still one)
    win.dispatchEvent(new Event('pagehide'));
    doc.dispatchEvent(new Event('freeze'));
    expect(left).toBe(2);
    guard.release();
    erase();
    guard.renew(); // holding nothing: no listener
    win.dispatchEvent(new Event('pagehide'));
    expect(left).toBe(2);
  });
});
