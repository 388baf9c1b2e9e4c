/**
 * The flow view's exports: a self-contained SVG document, downloaded, and a Mermaid `sequenceDiagram`, copied. They
 * take the selected range when there is one (Shift+click, Shift+↑/↓), else the whole flow as shown (the timeline's
 * filters applied); the buttons' titles say which. Both are made on the click, from the view's model.
 */
import { createSignal, type Accessor } from 'solid-js';
import { sliceFlow, type FlowModel } from '../../log/protocol.ts';
import { copyToClipboard, saveAsFile } from '../../ui/clipboard.ts';
import { usePanel } from '../../ui/use-panel.ts';
import { flowExports, flowFileName } from './flow-model.ts';

export function FlowExports(p: {
  model: Accessor<FlowModel>;
  /** The selected range's first and last rows, when there is one. */
  range: Accessor<readonly [number, number] | null>;
}) {
  const { store } = usePanel();
  const [done, setDone] = createSignal('');
  const make = () => {
    const r = p.range();
    return flowExports(r ? sliceFlow(p.model(), r[0], r[1]) : p.model(), store.log.state);
  };
  const what = () =>
    p.range()
      ? 'the selected range (Esc clears it to take the whole flow)'
      : 'the flow as shown (filters applied; Shift+click or Shift+↑/↓ selects a range to take only it)';
  const downloadSvg = () => {
    const { svg } = make();
    const name = flowFileName(store.log.state.pageUrl, new Date(), 'svg');
    saveAsFile(svg, name, 'image/svg+xml');
    setDone(`Saved ${name}`);
  };
  const copyMermaid = async () => {
    const { mermaid } = make();
    setDone((await copyToClipboard(mermaid)) ? 'Mermaid text copied' : 'Copy refused by the browser');
  };
  return (
    <span class="flow-exports">
      <span class="flow-done" role="status">
        {done()}
      </span>
      <button type="button" class="flow-svg-export" onClick={downloadSvg} title={`Download ${what()} as SVG`}>
        Save SVG
      </button>
      <button
        type="button"
        class="flow-mermaid-export"
        onClick={() => void copyMermaid()}
        title={`Copy ${what()} as a Mermaid sequenceDiagram`}
      >
        Copy Mermaid
      </button>
    </span>
  );
}
