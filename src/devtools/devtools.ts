import { browserApi } from '../shared/browser-api.ts';

// Creates the "Embed" panel in the inspected tab's DevTools.
// Absolute paths: Chrome resolves them against the extension's root, Firefox against this page's URL (a relative
// path opened src/devtools/src/panel/index.html there, a missing page).
void Promise.resolve(browserApi().devtools.panels.create('Embed', '/icons/icon-16.png', '/src/panel/index.html')).catch(
  (e) => console.warn('embed-inspector: could not create the panel', e),
);
