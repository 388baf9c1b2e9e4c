/**
 * The composition root: creates the store (the record log and the timeline view), the link to the inspected tab,
 * the source shown first (the live tab, the demo session, or nothing), the REST log and the features' controllers,
 * once, under one Solid root that lives as long as the page. Nothing else creates them; everything else receives
 * them (PanelRoot.tsx hands them down through the context).
 */
import { createRoot } from 'solid-js';
import { createStore } from './create-store.ts';
import { createMemoryTransport, createRuntimeTransport, type PanelTransport } from '../link/transports.ts';
import { bindStore } from '../ui/bridge.ts';
import { createRestLog } from '../features/rest/rest-log.ts';
import { createActController } from '../features/act/act-controller.ts';
import type { PanelEnv } from './env.ts';
import { devtoolsNetwork } from '../features/rest/network.ts';
import { DEFAULT_MAX_RECORDS } from '../../shared/messages.ts';
import { HOST_URL, TENANT, syntheticSession } from './synthetic.ts';
import type { PanelApp } from './context.ts';

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled
  }
}

export function createPanelApp(env: PanelEnv): PanelApp {
  return createRoot(() => {
    const store = createStore({ storage: localStorageOrNull(), tabId: env.tabId });
    let detach = () => {};
    const useTransport = (t: PanelTransport) => {
      detach();
      detach = store.attach(t);
    };

    // The live tab stays linked while an imported file is shown: the composer and replay send to it.
    const live = env.tabId !== null && !env.fixture ? store.connectLive(createRuntimeTransport(env.tabId)) : null;
    // (the demo session is in the test build only, which the tests and the screenshots load)
    if (import.meta.env.EI_TEST_BUILD && env.fixture) {
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
    } else if (live) {
      useTransport(live.view);
    } else {
      useTransport(createMemoryTransport({ live: false, label: env.view ? 'capture files' : 'not attached to a tab' }));
    }

    // Network traffic is observable only inside DevTools (devtools.network).
    const rest = createRestLog(devtoolsNetwork(), { preserveLog: () => store.log.state.preserveLog });
    store.log.on('cleared', () => rest.clear());

    const act = createActController({ store, link: live, useTransport, rest });
    const notice = () =>
      env.tabId === null && !env.fixture && !env.view && store.log.count === 0
        ? 'Not attached to a tab: open the Embed panel in DevTools, or open this page with ?tabId=<tab id>.'
        : null;
    return { env, store, ...bindStore(store), live, useTransport, notice, act, rest };
  });
}
