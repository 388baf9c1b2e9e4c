/**
 * The REST calls of the inspected tab: the four platform operations seen in the Network traffic, checked
 * against the contract (protocol/rest.ts). Fed by `chrome.devtools.network` in the DevTools panel
 * (network.ts); elsewhere (a tab with ?tabId=, an imported file) it stays empty and says why.
 * It follows the message log's rules: a top-level navigation of the inspected page starts it anew unless
 * "preserve log" is on, and Clear empties it (the caller wires Clear). While an imported file is shown, it shows
 * that file's REST calls (`showFile`), and the live ones again after (`showFile(null)`).
 */
import { createSignal } from 'solid-js';
import type { RestCall } from '../../log/protocol.ts';
import {
  checkHarEntry,
  observeNetwork,
  restRecordsOf,
  type DevtoolsNetwork,
  type HarEntry,
  type RestRecord,
} from './network.ts';

const MAX = 5_000;

export interface RestLog {
  records: () => RestRecord[];
  /** Whether Network traffic can be observed here (only inside DevTools). */
  available: boolean;
  add(r: RestRecord): void;
  /** Check HAR entries and add the ones that are REST operations (tests, imported HAR). */
  addHar(entries: HarEntry[]): Promise<number>;
  /** Show an imported file's REST calls (checked as `check` does) instead of the live ones; null: the live ones. */
  showFile(calls: readonly RestCall[] | null): void;
  clear(): void;
}

export function createRestLog(
  network: DevtoolsNetwork | undefined,
  opts: { preserveLog?: () => boolean } = {},
): RestLog {
  const [records, setRecords] = createSignal<RestRecord[]>([], { equals: false });
  const [file, setFile] = createSignal<RestRecord[] | null>(null);
  const list: RestRecord[] = [];
  const add = (r: RestRecord) => {
    list.push(r);
    if (list.length > MAX) {
      list.splice(0, list.length - MAX);
    }
    setRecords(list);
  };
  const clear = () => {
    list.length = 0;
    setRecords(list);
    if (file()) {
      setFile([]);
    }
  };
  if (network) {
    observeNetwork(network, add);
    network.onNavigated?.addListener(() => {
      if (!opts.preserveLog?.()) {
        clear();
      }
    });
  }
  return {
    records: () => file() ?? records(),
    available: !!network,
    add,
    async addHar(entries) {
      let n = 0;
      for (const e of entries) {
        const r = await checkHarEntry(e);
        if (r) {
          add(r);
          n++;
        }
      }
      return n;
    },
    showFile(calls) {
      setFile(calls ? restRecordsOf(calls) : null);
    },
    clear,
  };
}
