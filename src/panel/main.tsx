/** Entry of the panel page: picks the transport and theme from the environment, then renders the app. */
import { render } from 'solid-js/web';
import './styles.css';
import { App } from './ui/App.tsx';
import { PanelStore } from './store.ts';
import { readEnv, watchTheme } from './env.ts';
import { createMemoryTransport, createRuntimeTransport, type PanelTransport } from './transport.ts';
import { installHooks } from './hooks.ts';
import { HOST_URL, TENANT, syntheticSession } from './synthetic.ts';

const env = readEnv();
watchTheme(env, (t) => { document.documentElement.dataset.theme = t; });

let storage: Storage | null = null;
try { storage = window.localStorage; } catch { /* storage disabled */ }
const store = new PanelStore({ storage, tabId: env.tabId });

let detach = () => {};
function useTransport(t: PanelTransport) { detach(); detach = store.attach(t); }

if (env.fixture) {
  useTransport(createMemoryTransport({
    records: syntheticSession(env.fixtureSize), live: false, label: 'demo session (synthetic)',
    state: { tenantOrigin: TENANT, tenantOriginSource: 'embed-frame', pageUrl: HOST_URL },
  }));
} else if (env.tabId !== null) {
  useTransport(createRuntimeTransport(env.tabId));
} else {
  useTransport(createMemoryTransport({ live: false, label: 'not attached to a tab' }));
}
installHooks(store, useTransport);

const notice = () => (env.tabId === null && !env.fixture && store.records.length === 0
  ? 'Not attached to a tab: open the Embed panel in DevTools, or open this page with ?tabId=<tab id>.' : null);

render(() => <App store={store} notice={notice} />, document.getElementById('root')!);
