/**
 * The relay's end of the private channel to the MAIN world of its frame, full mode only (shared/messages.ts): a
 * detached Text node, made here and handed over at document_start, before any page script runs. The MAIN world asks
 * for it (CHANNEL_HELLO on `document`) and this end answers with it; where the MAIN world ran first, this end offers it
 * as it starts, and the MAIN world says hello on the node once it took it. Either way this end stops listening on
 * `document` once the node is handed over: from then on everything between the two worlds is an event on the node,
 * which no page script holds. A hello is taken only while the document holds no script of the page's.
 *
 * The node's text is also the frame's count of deliveries (deliveries.ts). A receive-only frame's relay opens no
 * channel: it neither listens for nor dispatches any event in the page's world.
 */
import { CHANNEL_HELLO, CHANNEL_NODE } from '../shared/messages.ts';

export interface RelayChannel {
  /** The channel's node; its text is the frame's count of deliveries. */
  readonly node: Text;
  /** Dispatch `type` on the node (a CustomEvent, with `detail` when given). */
  send(type: string, detail?: string): void;
  /** Listen for `type` on the node. */
  on(type: string, fn: (e: Event) => void): void;
}

export function openRelayChannel(doc: Document): RelayChannel {
  const node = doc.createTextNode('0');
  let handed = false;
  const offer = () => doc.dispatchEvent(new FocusEvent(CHANNEL_NODE, { relatedTarget: node }));
  const done = () => {
    handed = true;
    doc.removeEventListener(CHANNEL_HELLO, onHello);
  };
  function onHello() {
    if (!handed && doc.scripts.length === 0) {
      done();
      offer();
    }
  }
  doc.addEventListener(CHANNEL_HELLO, onHello);
  // The MAIN world took the node from the offer below (it ran first).
  node.addEventListener(CHANNEL_HELLO, () => {
    if (!handed) {
      done();
    }
  });
  offer();
  return {
    node,
    send(type, detail) {
      node.dispatchEvent(detail === undefined ? new CustomEvent(type) : new CustomEvent(type, { detail }));
    },
    on(type, fn) {
      node.addEventListener(type, fn);
    },
  };
}
