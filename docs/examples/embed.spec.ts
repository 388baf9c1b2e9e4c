// e2e/embed.spec.ts: Playwright's baseURL is the page that embeds the dashboard
import { expect, test } from 'embed-inspector/playwright';

test('the dashboard embed speaks the protocol', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:dashboard-loaded');
  await expect(embed).toHaveSeenInOrder(['svc:event:ready', 'svc:event:view', 'svc:event:dashboard-loaded']);
  await expect(embed).toHaveNoProtocolErrors(); // { allow: ['origin.action-wildcard'] } accepts a rule
});
