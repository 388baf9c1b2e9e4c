/**
 * The MAIN world's end of the private channel to its relay (shared/messages.ts): the detached Text node the relay
 * hands over at document_start, and every event between the two worlds dispatched on it. Whatever this end calls
 * later, in a page that may have replaced any built-in by then, it keeps now: the event constructors,
 * `dispatchEvent`, `add/removeEventListener`, and the getters of `detail`, `relatedTarget` and a Text node's `data`,
 * each called with `Reflect.apply` (kept too). So no page script can hear or speak on the channel, nor get the node
 * as `this` of a function it replaced. (A page can still replace what this world's other code calls, and so lie about
 * its own posts: what it says lands on its own frame's records only, background/batch.ts.)
 */
import { CHANNEL_HELLO, CHANNEL_NODE } from '../shared/messages.ts';

export interface PageChannel {
  /** Whether the relay handed the node over (it did unless this frame has no relay). */
  readonly open: boolean;
  /** Dispatch `type` on the node (a CustomEvent with `detail` when given); nothing before the node came. */
  send(type: string, detail?: unknown): void;
  /** Listen for `type` on the node (now, or once it comes); `fn` gets the event's detail. */
  on(type: string, fn: (detail: unknown) => void): void;
  /** The node's text: the relay's count of the frame's deliveries; NaN before the node came. */
  count(): number;
  /** `fn` runs once the node comes (at once when it is here). */
  whenOpen(fn: () => void): void;
}

const getter = (proto: object, name: string): ((this: unknown) => unknown) => {
  const g = Object.getOwnPropertyDescriptor(proto, name)?.get;
  if (typeof g !== 'function') {
    throw new Error(`no ${name} getter`);
  }
  return g;
};

/** Ask the relay for the node on `doc` (and take its offer, if it runs after this world). Call at document_start. */
export function openPageChannel(doc: Document): PageChannel {
  const apply = Reflect.apply;
  const ET = EventTarget.prototype;
  const { addEventListener: add, removeEventListener: remove, dispatchEvent: fire } = ET;
  const CE = CustomEvent;
  const TextNode = Text;
  const isText = (x: unknown): x is Text => typeof x === 'object' && x !== null && x instanceof TextNode;
  const relatedTarget = getter(FocusEvent.prototype, 'relatedTarget');
  const detailOf = getter(CustomEvent.prototype, 'detail');
  const textOf = getter(CharacterData.prototype, 'data');
  let node: Text | null = null;
  const pending: Array<() => void> = [];

  const onNode = (e: Event) => {
    const n = apply(relatedTarget, e, []);
    if (node !== null || !isText(n)) {
      return;
    }
    node = n;
    apply(remove, doc, [CHANNEL_NODE, onNode]);
    // (taken from the relay's offer: it then stops listening for our hello on `document`)
    apply(fire, node, [new CE(CHANNEL_HELLO)]);
    for (const fn of pending.splice(0)) {
      fn();
    }
  };
  // The relay answers at once when it runs first; else it offers the node as it starts (still document_start).
  apply(add, doc, [CHANNEL_NODE, onNode]);
  apply(fire, doc, [new CE(CHANNEL_HELLO)]);

  const whenOpen = (fn: () => void) => {
    if (node) {
      fn();
    } else {
      pending.push(fn);
    }
  };
  return {
    get open() {
      return node !== null;
    },
    send(type, detail) {
      if (node) {
        // (a dictionary without a prototype: the constructor reads no member a page could have put on Object's)
        const init = { __proto__: null, detail } as CustomEventInit;
        apply(fire, node, [detail === undefined ? new CE(type) : new CE(type, init)]);
      }
    },
    on(type, fn) {
      whenOpen(() => apply(add, node, [type, (e: Event) => fn(apply(detailOf, e, []))]));
    },
    count: () => (node ? +(apply(textOf, node, []) as string) : Number.NaN),
    whenOpen,
  };
}
