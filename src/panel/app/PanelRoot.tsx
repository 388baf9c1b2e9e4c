/**
 * The root component: hands the app (create-app.ts) down through the context and mounts the layout with the
 * features plugged into its slots — the act feature's toolbar buttons, drawer and detail tab, and the REST
 * calls' button and panel; drag-and-drop import wraps it all. `mountPanel` renders it, and the list of capture
 * files that `embed-inspector view` serves above it.
 */
import { createSignal, Show, type JSX } from 'solid-js';
import { render } from 'solid-js/web';
import { PanelContext, usePanel } from '../ui/use-panel.ts';
import { Icon } from '../ui/icons.tsx';
import { plural } from '../ui/format.ts';
import type { DetailTab } from '../ui/detail-context.ts';
import type { PanelApp } from './context.ts';
import { Layout } from './Layout.tsx';
import { ActContext, useAct } from '../features/act/act-controller.ts';
import { ActToolbar } from '../features/act/ActToolbar.tsx';
import { ActDrawer } from '../features/act/ActDrawer.tsx';
import { ActTab } from '../features/act/ActTab.tsx';
import { actRowMenu } from '../features/act/row-actions.ts';
import { RowMenuContext } from '../ui/row-menu-context.ts';
import { DropImport } from '../features/act/DropImport.tsx';
import { ViewFiles } from '../features/act/ViewFiles.tsx';
import { RestButton, RestPanel } from '../features/rest/RestPanel.tsx';

function Providers(p: { app: PanelApp; children: JSX.Element }) {
  return (
    <PanelContext.Provider value={p.app}>
      <ActContext.Provider value={p.app.act}>
        <RowMenuContext.Provider value={actRowMenu(p.app.act)}>{p.children}</RowMenuContext.Provider>
      </ActContext.Provider>
    </PanelContext.Provider>
  );
}

function PanelRoot(p: { app: PanelApp }) {
  const rest = p.app.rest;
  const tabs: DetailTab[] = [
    { id: 'act', label: () => 'Replay & code', icon: 'code', render: (ctx) => <ActTab ctx={ctx} /> },
  ];
  const [restOpen, setRestOpen] = createSignal(false);
  return (
    <Providers app={p.app}>
      <DropImport>
        <Layout
          extraTabs={tabs}
          toolbarActions={() => (
            <>
              <ActToolbar live={!!p.app.live || !!p.app.env.fixture} />
              <RestButton log={rest} open={restOpen} toggle={() => setRestOpen(!restOpen())} />
            </>
          )}
          source={() => <FileSource />}
          drawer={() => (
            <>
              <ActDrawer />
              <Show when={restOpen()}>
                <RestPanel log={rest} onClose={() => setRestOpen(false)} />
              </Show>
            </>
          )}
        />
      </DropImport>
    </Providers>
  );
}

/**
 * Above the list while an imported file is shown: which file and how many records, and the one way back to the
 * live tab (the toolbar's own button may be in its overflow menu at this width).
 */
function FileSource() {
  const act = useAct();
  const { select } = usePanel();
  const count = select('state', (s) => s.log.count);
  return (
    <Show when={act.viewing().kind === 'file'}>
      <div class="source-bar" role="note" data-testid="source-bar">
        <Icon name="file" />
        <span>
          Imported file <strong class="source-name">{act.viewing().label}</strong>: {plural(count(), 'record')}, not the
          live tab.
        </span>
        <Show when={act.link}>
          <button type="button" class="tool src-live" onClick={() => act.goLive()}>
            <Icon name="back" /> Back to the live tab
          </button>
        </Show>
      </div>
    </Show>
  );
}

/** Render the panel into `root`; with `?view=`, the capture files' switcher in a bar above it. */
export function mountPanel(app: PanelApp, root: HTMLElement): void {
  const list = app.env.view;
  if (list) {
    const bar = document.createElement('div');
    document.body.prepend(bar);
    render(
      () => (
        <Providers app={app}>
          <ViewFiles list={list} />
        </Providers>
      ),
      bar,
    );
  }
  render(() => <PanelRoot app={app} />, root);
}
