/** Entry of the panel page: picks the transport and theme from the environment, then renders the app. */
import { render } from 'solid-js/web';
import './styles.css';
import { ActApp } from './app/PanelRoot.tsx';
import { PanelStore } from './link/panel-store.ts';
import { devtoolsNetwork, readEnv, watchTheme } from './env.ts';
import { createMemoryTransport, createRuntimeTransport, type PanelTransport } from './link/transports.ts';
import { installTestHandle } from './app/test-handle.ts';
import { createLiveLink } from './link/live-link.ts';
import { HOST_URL, TENANT, syntheticSession } from './app/synthetic.ts';
import { createRestLog } from './features/rest/rest-log.ts';
import { DEFAULT_MAX_RECORDS } from '../shared/messages.ts';
import { ViewFiles } from './features/view-files/ViewFiles.tsx';
import { createSignal } from 'solid-js';
import type { ActController } from './features/act/act-controller.ts';

const env = readEnv();
watchTheme(env, (t) => {
  document.documentElement.dataset.theme = t;
});

let storage: Storage | null = null;
try {
  storage = window.localStorage;
} catch {
  /* storage disabled */
}
const store = new PanelStore({ storage, tabId: env.tabId });

let detach = () => {};
function useTransport(t: PanelTransport) {
  detach();
  detach = store.attach(t);
}

// The live tab stays linked while an imported file is shown: the composer and replay send to it.
const link = env.tabId !== null && !env.fixture ? createLiveLink(createRuntimeTransport(env.tabId)) : null;
if (env.fixture) {
  useTransport(
    createMemoryTransport({
      records: syntheticSession(env.fixtureSize),
      live: false,
      label: 'demo session (synthetic)',
      state: {
        tenantOrigin: TENANT,
        tenantOriginSource: 'embed-frame',
        pageUrl: HOST_URL,
        maxRecords: Math.max(DEFAULT_MAX_RECORDS, env.fixtureSize),
      },
    }),
  );
} else if (link) {
  useTransport(link.view);
} else {
  useTransport(createMemoryTransport({ live: false, label: env.view ? 'capture files' : 'not attached to a tab' }));
}
const hooks = installTestHandle(store, useTransport);
hooks.link = link;
// Network traffic is observable only inside DevTools (devtools.network).
const rest = createRestLog(devtoolsNetwork(), { preserveLog: () => store.log.state.preserveLog });
store.log.on('cleared', () => rest.clear());
hooks.rest = rest;

const notice = () =>
  env.tabId === null && !env.fixture && !env.view && store.log.count === 0
    ? 'Not attached to a tab: open the Embed panel in DevTools, or open this page with ?tabId=<tab id>.'
    : null;

const [act, setAct] = createSignal<ActController>();
if (env.view) {
  const bar = document.createElement('div');
  document.body.prepend(bar);
  const list = env.view;
  render(() => <ViewFiles list={list} act={act} />, bar);
}

render(
  () => (
    <ActApp
      store={store}
      link={link}
      useTransport={useTransport}
      notice={notice}
      rest={rest}
      onReady={(a) => {
        hooks.act = a;
        setAct(a);
      }}
    />
  ),
  document.getElementById('root')!,
);
