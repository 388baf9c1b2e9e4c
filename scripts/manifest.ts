import source from '../manifest.json' with { type: 'json' };

export type Browser = 'chrome' | 'firefox';
export const GECKO_ID = 'embed-inspector@embed-inspector.dev';

/**
 * The one source manifest, adapted per browser (Firefox: background scripts + gecko settings). It declares no
 * content scripts: the capture scripts are registered at run time for the captured sites only
 * (src/background/scope.ts), from the standalone files that vite.config.ts builds (src/background/capture-files.ts).
 */
export function browserManifest(browser: Browser) {
  const manifest = structuredClone(source) as Record<string, any>;
  if (browser === 'chrome') {
    // Chromium 148+: extension messages (the relays' batches) are structured-cloned instead of converted to
    // JSON: a batch string is copied, not escaped and re-parsed (about a third less CPU per byte in the page).
    // Older Chromium ignores the key and keeps JSON; Firefox always clones.
    manifest.message_serialization = 'structured_clone';
  }
  if (browser === 'firefox') {
    manifest.background = { scripts: [manifest.background.service_worker], type: 'module' };
    manifest.browser_specific_settings = {
      gecko: {
        id: GECKO_ID,
        strict_min_version: '142.0',
        data_collection_permissions: { required: ['none'] },
      },
    };
  }
  return manifest as any;
}
