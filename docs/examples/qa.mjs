// qa.mjs: APP_URL=https://app.example/reports/42 node qa.mjs
import { launchWithInspector } from 'embed-inspector/puppeteer';

const { browser, embed, close } = await launchWithInspector({ capture: { sites: 'all', mode: 'full' } });
try {
  const page = await browser.newPage();
  await page.goto(process.env.APP_URL);
  await embed.waitFor('svc:event:dashboard-loaded');
  await embed.send({ type: 'svc:action:set-locale', payload: { locale: 'de-DE' } });
  const errors = await embed.issues({ severity: 'error' });
  if (errors.length) {
    throw new Error(`protocol errors:\n${errors.map((i) => i.message).join('\n')}`);
  }
  console.log('no protocol errors');
} finally {
  await close();
}
