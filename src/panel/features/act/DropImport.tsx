/** Drag-and-drop import of a capture file or HAR anywhere on the panel (nothing is replayed). */
import { createSignal, Show, type JSX } from 'solid-js';
import { useAct } from './act-controller.ts';

export function DropImport(p: { children: JSX.Element }) {
  const act = useAct();
  const [dragging, setDragging] = createSignal(false);
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
      {p.children}
      <Show when={dragging()}>
        <div class="drop-overlay" aria-hidden="true">
          Drop a capture file or HAR to inspect it (nothing is replayed)
        </div>
      </Show>
    </div>
  );
}
