/**
 * The flow view's exports of what it shows (the timeline's filters applied): a self-contained SVG document,
 * downloaded, and a Mermaid `sequenceDiagram`, copied. Both are made on the click, from the view's model.
 */
import { createSignal, type Accessor } from 'solid-js';
import type { FlowModel } from '../../log/protocol.ts';
import { copyToClipboard, saveAsFile } from '../../ui/clipboard.ts';
import { usePanel } from '../../ui/use-panel.ts';
import { flowExports, flowFileName } from './flow-model.ts';

/** The last export, for tests (extension pages cannot read a download or, headless, the clipboard). */
export const lastFlowExport: { name: string; text: string } = { name: '', text: '' };

export function FlowExports(p: { model: Accessor<FlowModel> }) {
  const { store } = usePanel();
  const [done, setDone] = createSignal('');
  const make = () => flowExports(p.model(), store.log.state);
  const downloadSvg = () => {
    const { svg } = make();
    const name = flowFileName(store.log.state.pageUrl, new Date(), 'svg');
    Object.assign(lastFlowExport, { name, text: svg });
    saveAsFile(svg, name, 'image/svg+xml');
    setDone(`Saved ${name}`);
  };
  const copyMermaid = async () => {
    const { mermaid } = make();
    Object.assign(lastFlowExport, { name: flowFileName(store.log.state.pageUrl, new Date(), 'mmd'), text: mermaid });
    setDone((await copyToClipboard(mermaid)) ? 'Mermaid text copied' : 'Copy refused by the browser');
  };
  return (
    <span class="flow-exports">
      <span class="flow-done" role="status">
        {done()}
      </span>
      <button
        type="button"
        class="flow-svg-export"
        onClick={downloadSvg}
        title="Download the flow as shown (filters applied) as SVG"
      >
        Save SVG
      </button>
      <button
        type="button"
        class="flow-mermaid-export"
        onClick={() => void copyMermaid()}
        title="Copy the flow as shown (filters applied) as a Mermaid sequenceDiagram"
      >
        Copy Mermaid
      </button>
    </span>
  );
}
