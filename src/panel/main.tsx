/** Entry of the panel page: reads the environment, follows the theme, composes the app and renders it. */
import './app/styles.css';
import { readEnv, watchTheme } from './app/env.ts';
import { createPanelApp } from './app/create-app.ts';
import { installTestHandle } from './app/test-handle.ts';
import { mountPanel } from './app/PanelRoot.tsx';

const env = readEnv();
watchTheme(env, (t) => {
  document.documentElement.dataset.theme = t;
});
const app = createPanelApp(env);
// (the test build only: what users install has no handle, and the bundler leaves test-handle.ts out)
if (import.meta.env.EI_TEST_BUILD) {
  installTestHandle(app);
}
mountPanel(app, document.getElementById('root')!);
