import browser from 'webextension-polyfill';

// Creates the "Embed" panel in the inspected tab's DevTools.
browser.devtools.panels.create('Embed', 'icons/icon-16.png', 'src/panel/index.html');
