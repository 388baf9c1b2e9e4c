// The fixture on a busy page: the sandbox host floods its embed with 10,000 actions (as a host replaying a filter
// history does; 20,000 in the background of the tests whose wait outlasts them), each test on its own page, two
// workers held to one core
// (test/e2e/playwright-load.test.ts runs it so and reads back Playwright's JSON report).
import type { Page } from '@playwright/test';
import { expect, test } from 'embed-inspector/playwright';
import { TENANT_ORIGIN } from '../load.config.ts';

const FLOOD = 10_000;
/** The flood while a wait outlasts the test: on a loaded machine, longer than the test's whole time. */
const BACKGROUND_FLOOD = 20_000;
/**
 * The time of a test whose wait outlasts it. The page floods while the wait goes on (how long a flood takes is the
 * machine's: on one loaded core, longer than this whole time), so what is running when the time ends is the wait.
 */
const TIGHT = 20_000;

/**
 * The host page posts FLOOD color-scheme actions to the embed frame at the tenant origin, 500 per task; resolves
 * when it has, or at once with `background` (the page floods while the test goes on).
 */
async function flood(page: Page, opts: { background?: boolean } = {}) {
  await page.evaluate(
    async ({ n, origin, background }) => {
      const frame = document.querySelector('[data-testid="embed-frame"]') as HTMLIFrameElement;
      const post = async () => {
        for (let i = 0; i < n; i++) {
          frame.contentWindow?.postMessage(
            {
              source: 'svc-embed',
              direction: 'action',
              type: 'svc:action:set-color-scheme',
              payload: { scheme: i % 2 ? 'dark' : 'light' },
              timestamp: Date.now(),
            },
            origin,
          );
          if (i % 500 === 499) {
            await new Promise((r) => setTimeout(r, 0));
          }
        }
      };
      if (background) {
        void post();
      } else {
        await post();
      }
    },
    { n: opts.background ? BACKGROUND_FLOOD : FLOOD, origin: TENANT_ORIGIN, background: !!opts.background },
  );
}

test('a flooding host with one action posted to "*" fails toHaveNoProtocolErrors, with the evidence', async ({
  page,
  embed,
}) => {
  test.fail(true, 'action-star: the host posts set-color-scheme once with target origin "*"');
  await page.goto('/?faults=action-star');
  await embed.waitFor('svc:action:set-color-scheme', { kind: 'post' });
  await flood(page);
  await expect(embed).toHaveNoProtocolErrors();
});

test('every action of the flood is captured, and delivered', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:ready');
  await flood(page);
  expect(await embed.records({ type: 'svc:action:set-color-scheme', kind: 'post' })).toHaveLength(FLOOD);
  expect(await embed.records({ type: 'svc:action:set-color-scheme', kind: 'receive' })).toHaveLength(FLOOD);
  await expect(embed).toHaveReceived('svc:action:set-color-scheme', { scheme: 'dark' });
  await expect(embed).toHaveNoProtocolErrors();
});

test('a wait that outlasts the test ends first and names itself', async ({ page, embed }) => {
  test.fail(true, 'no download happens');
  test.setTimeout(TIGHT);
  await page.goto('/');
  await embed.waitFor('svc:event:ready');
  await flood(page, { background: true });
  await embed.waitFor('svc:event:download', { timeout: 120_000 });
});

test('an assertion that outlasts the test ends first and names itself', async ({ page, embed }) => {
  test.fail(true, 'no download happens');
  test.setTimeout(TIGHT);
  await page.goto('/');
  await embed.waitFor('svc:event:ready');
  await flood(page, { background: true });
  await expect(embed).toHaveSeen('svc:event:download', { timeout: 120_000 });
});
