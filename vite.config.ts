import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import solid from 'vite-plugin-solid';
import { browserManifest, type Browser } from './scripts/manifest.ts';

// One source manifest (manifest.json), two builds: `vite build --mode chrome|firefox`.
export default defineConfig(({ mode }) => {
  const browser: Browser = mode === 'firefox' ? 'firefox' : 'chrome';
  return {
    plugins: [
      solid(),
      crx({
        manifest: browserManifest(browser),
        browser,
        // Both capture scripts must run synchronously at document_start, not behind an async loader.
        contentScripts: { standaloneFiles: ['src/capture/relay.ts', 'src/capture/main-world.ts'] },
      }),
    ],
    build: {
      outDir: `dist/${browser}`,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      minify: false,
      // crxjs only follows HTML named in the manifest; the panel is created at run time.
      rolldownOptions: { input: { panel: 'src/panel/index.html' } },
    },
    server: { port: 5173, strictPort: true },
  };
});
