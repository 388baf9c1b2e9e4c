import { afterEach, describe, expect, it } from 'vitest';
import { findBrowserApi, browserApi } from './browser-api.ts';

const g = globalThis as { browser?: unknown; chrome?: unknown };
afterEach(() => {
  delete g.browser;
  delete g.chrome;
});

describe('the one extension API accessor', () => {
  it("takes the browser's namespace whose runtime connects (Firefox's browser first, else Chrome's chrome)", () => {
    const firefox = { runtime: { connect: () => ({}) } };
    const chrome = { runtime: { connect: () => ({}) } };
    g.chrome = chrome;
    expect(findBrowserApi()).toBe(chrome);
    g.browser = firefox;
    expect(findBrowserApi()).toBe(firefox);
  });

  it("ignores a page's look-alike: named elements (a form 'browser' with an input 'runtime') are no namespace", () => {
    const chrome = { runtime: { connect: () => ({}) } };
    g.browser = { runtime: { name: 'runtime', value: '' } }; // what `<form id=browser><input name=runtime>` gives
    g.chrome = chrome;
    expect(findBrowserApi()).toBe(chrome);
    delete g.chrome;
    expect(findBrowserApi()).toBeUndefined();
    expect(() => browserApi()).toThrow(/no extension API/);
  });
});
