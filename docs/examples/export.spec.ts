// e2e/export.spec.ts: an export in the embed reaches the host, and the host's own actions are sent right
import { expect, test } from 'embed-inspector/playwright';

test.use({ embedInspector: { sites: 'all', mode: 'full' } }); // the default; or sites: ['https://app.example', …]

test('a CSV export reaches the host', async ({ page, embed }) => {
  await page.goto('/?allowExport=true');
  await page.frameLocator('iframe').getByRole('button', { name: 'CSV' }).first().click();
  await expect(embed).toHaveReceived('svc:event:download', { format: 'csv', rowCount: expect.any(Number) });
});

test('the host can switch the embed to dark', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:ready');
  await embed.send({ type: 'svc:action:set-color-scheme', payload: { scheme: 'dark' } });
  const [post] = await embed.records({ type: 'svc:action:set-color-scheme', kind: 'post' });
  expect(post.targetOrigin).not.toBe('*');
  await expect(embed).toHaveNoProtocolErrors();
});
