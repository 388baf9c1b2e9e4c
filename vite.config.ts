import { build, defineConfig, type Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import solid from 'vite-plugin-solid';
import { browserManifest, type Browser } from './scripts/manifest.ts';
import { CAPTURE_SCRIPTS } from './src/background/capture-files.ts';

/**
 * The capture scripts (CAPTURE_SCRIPTS) as standalone files: each one IIFE with its imports inlined, no loader
 * and no `import`, so that a script registered for `document_start` runs synchronously before the page. The
 * manifest declares no content scripts (they are registered at run time), so crxjs does not build them: each is
 * a small extra build of its own, emitted into the extension's bundle at its stable path.
 */
function captureScripts(define: Record<string, string>): Plugin {
  return {
    name: 'embed-inspector:capture-scripts',
    apply: 'build',
    async generateBundle() {
      for (const { entry, file } of Object.values(CAPTURE_SCRIPTS)) {
        const result = await build({
          configFile: false,
          logLevel: 'warn',
          publicDir: false,
          define,
          build: {
            write: false,
            target: 'es2022',
            minify: false,
            sourcemap: false,
            emptyOutDir: false,
            rolldownOptions: { input: entry, output: { format: 'iife', codeSplitting: false } },
          },
        });
        const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
        const chunk = outputs.find((o) => o.type === 'chunk' && o.isEntry);
        if (chunk?.type !== 'chunk') {
          throw new Error(`capture script ${entry}: no output`);
        }
        if (outputs.length !== 1) {
          throw new Error(`capture script ${entry}: ${outputs.length} output files instead of one`);
        }
        if (/^\s*(import|export)\b|\bimport\s*\(/m.test(chunk.code)) {
          throw new Error(`capture script ${entry}: the output still imports or exports`);
        }
        this.emitFile({ type: 'asset', fileName: file, source: chunk.code });
      }
    },
  };
}

// One source manifest (manifest.json), two builds: `vite build --mode chrome|firefox`. EI_RELEASE=1 (`npm run package`,
// `node scripts/build.mjs --release`) builds what users install: `import.meta.env.EI_TEST_BUILD` is false, and the
// code behind it (the panel's test handle, the demo session) is left out of the bundle.
export default defineConfig(({ mode }) => {
  const browser: Browser = mode === 'firefox' ? 'firefox' : 'chrome';
  const testBuild = process.env.EI_RELEASE !== '1';
  const define = {
    'import.meta.env.EI_TEST_BUILD': JSON.stringify(testBuild),
    'import.meta.env.EI_BROWSER': JSON.stringify(browser),
  };
  return {
    plugins: [solid(), crx({ manifest: browserManifest(browser), browser }), captureScripts(define)],
    define,
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
