import { defineConfig } from 'vite';

// The Node side: the command line and the libraries (`exports` of package.json), as ES modules (`.js`) and, for
// CommonJS projects (`require`, and Playwright's TypeScript in a project without "type": "module"), as `.cjs`.
export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist/node',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rolldownOptions: {
      input: {
        cli: 'src/cli/main.ts',
        protocol: 'src/protocol/index.ts',
        chromium: 'src/node/chromium.ts',
        'devtools-panel': 'src/node/devtools-panel.ts',
        playwright: 'src/node/playwright.ts',
        puppeteer: 'src/node/puppeteer.ts',
        reporter: 'src/node/reporter.ts',
      },
      // The test libraries use the browser driver the project has installed: never bundled.
      external: [/^@playwright\/test(\/|$)/, /^playwright-core(\/|$)/, /^puppeteer-core(\/|$)/],
      output: [
        { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
        { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
      ],
    },
  },
});
