import { describe, expect, it } from 'vitest';
import { hrefOf } from './deliveries.ts';

describe('hrefOf: location.href from document.URL', () => {
  it.each([
    ['http://127.0.0.1:4100/a?q=1#h', 'http://127.0.0.1:4100/a?q=1#h'],
    ['http://user:secret@127.0.0.1:4100/a', 'http://127.0.0.1:4100/a'],
    ['https://user@host.test/', 'https://host.test/'],
    ['https://:pw@host.test/x', 'https://host.test/x'],
    ['https://host.test/path@with-at?mail=a@b.test', 'https://host.test/path@with-at?mail=a@b.test'],
    ['about:blank', 'about:blank'],
    ['about:srcdoc', 'about:srcdoc'],
    ['not a url @ all', 'not a url @ all'],
  ])('%s -> %s', (docUrl, href) => {
    expect(hrefOf(docUrl)).toBe(href);
  });
});
