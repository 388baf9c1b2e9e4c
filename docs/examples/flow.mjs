// flow.mjs: embed-inspector record URL --script flow.mjs drives the page before the capture is read
export default async ({ page, embed }) => {
  await embed.waitFor('svc:event:dashboard-loaded');
  await page.click('[data-testid="action-refresh"]');
  await embed.waitFor('svc:action:refresh');
};
