/** What the build defines (vite.config.ts). */
interface ImportMetaEnv {
  /**
   * True in the build the tests load (`npm run build`), false in what users install (`npm run package`): the code
   * behind it (the panel's test handle, the demo session) is then left out of the bundle. Undefined under vitest.
   */
  readonly EI_TEST_BUILD?: boolean;
}
