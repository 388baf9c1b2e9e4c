/**
 * The panel with the "act" features plugged in: toolbar buttons, the bottom drawer, the detail tab, and
 * drag-and-drop import of capture files anywhere on the panel.
 */
import { createSignal, Show } from 'solid-js';
import { App } from './Layout.tsx';
import type { PanelStore } from '../link/panel-store.ts';
import type { PanelTransport } from '../link/transports.ts';
import type { LiveLink } from '../link/live-link.ts';
import type { DetailTab } from '../ui/Detail.tsx';
import { createActController, type ActController } from '../features/act/act-controller.ts';
import { ActToolbar } from '../features/act/ActToolbar.tsx';
import { ActDrawer } from '../features/act/ActDrawer.tsx';
import { ActTab } from '../features/act/ActTab.tsx';
import { RestButton, RestPanel } from '../features/rest/RestPanel.tsx';
import type { RestLog } from '../features/rest/rest-log.ts';

export interface ActAppProps {
  store: PanelStore;
  link: LiveLink | null;
  useTransport: (t: PanelTransport) => void;
  notice?: () => string | null;
  onReady?: (act: ActController) => void;
  /** REST calls seen in the Network traffic (DevTools only). */
  rest?: RestLog;
}

export function ActApp(p: ActAppProps) {
  const act = createActController({ store: p.store, link: p.link, useTransport: p.useTransport, rest: p.rest });
  p.onReady?.(act);
  const tabs: DetailTab[] = [
    { id: 'act', label: () => 'Replay & code', render: (ctx) => <ActTab act={act} ctx={ctx} /> },
  ];
  const [dragging, setDragging] = createSignal(false);
  const [restOpen, setRestOpen] = createSignal(false);
  const toolbar = () => (
    <>
      <ActToolbar act={act} />
      <Show when={p.rest}>
        {(log) => <RestButton log={log()} open={restOpen} toggle={() => setRestOpen(!restOpen())} />}
      </Show>
    </>
  );
  const drawer = () => (
    <>
      <ActDrawer act={act} />
      <Show when={p.rest && restOpen()}>
        <RestPanel log={p.rest!} onClose={() => setRestOpen(false)} />
      </Show>
    </>
  );
  const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  return (
    <div
      class="drop-root"
      onDragOver={(e) => {
        if (hasFiles(e)) {
          e.preventDefault();
          e.dataTransfer!.dropEffect = 'copy';
          setDragging(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.relatedTarget === null) {
          setDragging(false);
        }
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) {
          return;
        }
        e.preventDefault();
        setDragging(false);
        const f = e.dataTransfer!.files[0];
        if (f) {
          void act.importFile(f);
        }
      }}
    >
      <App store={p.store} notice={p.notice} extraTabs={tabs} toolbarActions={toolbar()} drawer={drawer} />
      <Show when={dragging()}>
        <div class="drop-overlay" aria-hidden="true">
          Drop a capture file or HAR to inspect it (nothing is replayed)
        </div>
      </Show>
    </div>
  );
}
