import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAPTURE_NOTICE_MS, CaptureNotice } from './capture-notice.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('capture notice', () => {
  it('is due once the frames have not changed for CAPTURE_NOTICE_MS', () => {
    const due = vi.fn();
    const n = new CaptureNotice(due);
    n.framesChanged();
    vi.advanceTimersByTime(CAPTURE_NOTICE_MS - 1);
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('is due once for a burst of changes, after the last of them', () => {
    const due = vi.fn();
    const n = new CaptureNotice(due);
    for (let i = 0; i < 4; i++) {
      n.framesChanged();
      vi.advanceTimersByTime(CAPTURE_NOTICE_MS - 1);
    }
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(CAPTURE_NOTICE_MS * 4);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('is never due once the tab is gone', () => {
    const due = vi.fn();
    const n = new CaptureNotice(due);
    n.framesChanged();
    n.close();
    n.framesChanged();
    vi.advanceTimersByTime(CAPTURE_NOTICE_MS * 4);
    expect(due).not.toHaveBeenCalled();
  });
});
