import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameNavs, NAV_WAIT_MS, type FrameNav } from './frame-navs.ts';

const URL_A = 'https://acme.example.com/embed/dashboard/d1';
const nav = (time: number, url = URL_A, frameId = 4): FrameNav => ({ frameId, url, time });

describe('FrameNavs: a subframe navigation record takes its document start when its relay says so', () => {
  let late: FrameNav[];
  let now: number;
  let navs: FrameNavs;
  beforeEach(() => {
    vi.useFakeTimers();
    late = [];
    now = 0;
    navs = new FrameNavs(
      (n) => late.push(n),
      () => now,
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    // [case, relay start, placed at]
    ['the relay started before the browser stamped the commit', 2990, 2990],
    ['the relay started after it (a clock a little ahead)', 3004, 3000],
  ])('commit first, then the hello: %s', (_, start, at) => {
    expect(navs.committed(nav(3000), true)).toEqual([]);
    expect(navs.started(4, URL_A, start)).toEqual([nav(at)]);
    vi.advanceTimersByTime(NAV_WAIT_MS * 2);
    expect(late).toEqual([]);
  });

  it('hello first, then the commit', () => {
    expect(navs.started(4, URL_A, 2990)).toEqual([]);
    now += 5;
    expect(navs.committed(nav(3000), true)).toEqual([nav(2990)]);
  });

  it('no relay comes: the record leaves after NAV_WAIT_MS, with the browser time', () => {
    expect(navs.committed(nav(3000), true)).toEqual([]);
    vi.advanceTimersByTime(NAV_WAIT_MS - 1);
    expect(late).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(late).toEqual([nav(3000)]);
  });

  it('a frame nobody captures: at once', () => {
    expect(navs.committed(nav(3000, 'https://ads.example/x'), false)).toEqual([nav(3000, 'https://ads.example/x')]);
  });

  it("another document's hello does not place it: other URL, other frame, or a hello too old", () => {
    navs.committed(nav(3000), true);
    expect(navs.started(4, `${URL_A}?other`, 2990)).toEqual([]);
    expect(navs.started(5, URL_A, 2990)).toEqual([]);
    vi.advanceTimersByTime(NAV_WAIT_MS);
    expect(late).toEqual([nav(3000)]);
    // A hello remembered longer than NAV_WAIT_MS is not this commit's.
    navs.started(4, URL_A, 100);
    now += NAV_WAIT_MS + 1;
    expect(navs.committed(nav(5000), false)).toEqual([nav(5000)]);
  });

  it('a second commit of the frame lets the first waiting record go first, as it was', () => {
    navs.committed(nav(3000), true);
    expect(navs.committed(nav(3100, `${URL_A}#2`), true)).toEqual([nav(3000)]);
    expect(navs.started(4, `${URL_A}#2`, 3090)).toEqual([nav(3090, `${URL_A}#2`)]);
  });

  it('releaseAll: every waiting record, and no timer left', () => {
    navs.committed(nav(3000), true);
    navs.committed(nav(3000, URL_A, 6), true);
    expect(navs.releaseAll()).toEqual([nav(3000), nav(3000, URL_A, 6)]);
    vi.advanceTimersByTime(NAV_WAIT_MS * 2);
    expect(late).toEqual([]);
  });
});
