// An embed on an HTTPS host whose certificate no authority signed (EI_PW_HTTPS_URL; see https.config.ts).
import { expect, test } from 'embed-inspector/playwright';

test('a page with a self-signed certificate opens and is captured', async ({ page, embed }) => {
  await page.goto('/');
  const ready = await embed.waitFor('svc:event:ready');
  expect(ready.origin).toMatch(/^https:\/\/localhost:\d+$/);
  await expect(embed).toHaveNoProtocolErrors();
});
