/** What the build defines (vite.config.ts). */
interface ImportMetaEnv {
  /**
   * True in the build the tests load (`npm run build`), false in what users install (`npm run package`): the code
   * behind it (the panel's test handle, the demo session) is then left out of the bundle. Undefined under vitest.
   */
  readonly EI_TEST_BUILD?: boolean;
  /**
   * The browser the build is for (`vite build --mode chrome|firefox`): code that differs by browser asks this
   * instead of the extension API (a call the capture would make at document_start in every frame). Undefined under
   * vitest.
   */
  readonly EI_BROWSER?: 'chrome' | 'firefox';
}
