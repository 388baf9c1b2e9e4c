/**
 * The capture hop: ports from the relays (one per frame and document). A relay whose frame's origin is out of the
 * capture scope (Firefox: another port of a captured host, whose pattern cannot name the port; any browser: a page
 * loaded before its site was removed) is told to pause and nothing it sends is stored; it never opens a tab's log.
 * What a relay in scope says goes to its tab's session.
 */
import type { CaptureMode, RelayToBackground } from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { dispatch, type Handlers } from '../shared/channel.ts';
import { originOf } from '../protocol/origin.ts';
import { configOf, pageOf } from './tab-relays.ts';
import type { Sessions } from './sessions.ts';
import { newState } from './tablog.ts';
import { RelayPort } from './relay-port.ts';
import { warnDropped } from './input-checks.ts';
import type { SpillSeal } from './spill.ts';

type Sender = Runtime.MessageSender & { documentId?: string; origin?: string; documentLifecycle?: string };

/** What the capture hop needs of the scope (scope.ts; injected: unit tests give fakes). */
export interface CaptureScope {
  /** Resolves once the stored scope is loaded. */
  ready: Promise<void>;
  frameMode(origin: string | null): CaptureMode | null;
}

/** A frame's origin: the sender's (Chromium gives an about:blank frame its creator's), else its URL's. */
const originOfSender = (sender: Sender | undefined, frameUrl: string): string | null =>
  (sender?.origin && sender.origin !== 'null' ? sender.origin : null) ?? originOf(frameUrl);

/**
 * `seal`: hands each relay in scope, once its hello is heard, the seal of what the browser says of its port (spill.ts),
 * for what it may have to leave in storage as its frame goes.
 */
export function onCapturePort(
  port: Runtime.Port,
  sessions: Sessions,
  scope: CaptureScope,
  seal?: Pick<SpillSeal, 'seal'>,
): void {
  const sender = port.sender as Sender | undefined;
  const senderTab = sender?.tab?.id;
  if (senderTab === undefined || senderTab < 0) {
    port.disconnect();
    return;
  }
  const tabId: number = senderTab;
  if (sender?.documentLifecycle === 'prerender') {
    // (a page being prerendered is not the tab's: its relay holds until it is shown, then opens another port)
    port.disconnect();
    return;
  }
  const relay = new RelayPort(port, tabId, sender?.frameId ?? 0, warnDropped);

  type InOrder = Exclude<RelayToBackground, { type: 'post-result' }>;
  const inOrder: Handlers<InOrder> = {
    hello(msg) {
      const origin = originOfSender(sender, msg.frameUrl);
      // (about:blank and about:srcdoc take their creator's origin, which the browser may not name)
      relay.opaque = sender?.origin === 'null' && !/^about:/i.test(msg.frameUrl);
      relay.since = typeof msg.time === 'number' && Number.isFinite(msg.time) ? msg.time : undefined;
      relay.frameUrl = msg.frameUrl;
      // (a tab closed already: its page's last words are heard and stored nowhere)
      const mode = sessions.isClosed(tabId) ? null : scope.frameMode(origin);
      relay.hello(origin, mode);
      if (mode === null) {
        relay.config(configOf(newState(tabId), null, sessions.maxBytes()));
        return;
      }
      if (relay.frameId === 0) {
        sessions.setScoped(tabId, true);
      }
      // (asked at once, while the document surely exists; the session waits for it before the relay's batches)
      const page = pageOf(tabId, relay.frameId, sender?.documentId);
      const attached = sessions.get(tabId).attachRelay(relay, msg, {
        documentId: sender?.documentId,
        lifecycle: sender?.documentLifecycle,
        page,
        opaque: relay.opaque,
      });
      if (seal && !msg.sealed) {
        // (once a document as a rule: a reconnection's hello, after the worker stopped, says it holds its seal)
        attached
          .then(async () =>
            seal.seal({ tabId, frameId: relay.frameId, origin, page: (await page) ?? null, docId: msg.docId }),
          )
          .then((key) => relay.post({ type: 'spill-key', key }))
          .catch((e) => console.warn('embed-inspector: no spill key', e));
      }
    },
    flushed(msg) {
      // After the batches of that hand-over (one port, in order): they are on the session's chain already.
      sessions.peek(tabId)?.flushed(msg.id);
    },
    received() {
      if (!relay.outOfScope) {
        sessions.peek(tabId)?.received(relay);
      }
    },
    records(msg) {
      // Out of scope, or the tab closed since its hello: not stored, only acknowledged, so that the relay lets the
      // batch go.
      if (relay.outOfScope || sessions.isClosed(tabId)) {
        relay.ack(msg.batch);
        return;
      }
      // Stored now, processed later (pending-batches.ts): a burst costs the page little.
      void sessions.get(tabId).ingest(relay, msg);
    },
  };

  // Messages are handled in the order they came, once the scope is loaded: a frame's batches reach the tab's
  // chain after its hello (which may start the tab's log). A send's answer goes to its tab at once.
  let gate: Promise<void> = scope.ready;
  relay.channel.listen((msg) =>
    dispatch(msg, {
      'post-result': (m) => sessions.peek(tabId)?.sendResult(m),
      hello: (m) => later(m),
      flushed: (m) => later(m),
      received: (m) => later(m),
      records: (m) => later(m),
    }),
  );
  function later(msg: InOrder): void {
    const handle = () => dispatch(msg, inOrder);
    gate = gate.then(handle, handle);
  }
  const gone = () => {
    // At once (a hello still waiting for the scope then attaches nothing: see TabSession.attachRelay).
    relay.closed();
    void sessions.peek(tabId)?.detachRelay(relay);
  };
  port.onDisconnect.addListener(gone);
  relay.whenClosedHere(gone); // (a batch it could not store: RelayPort.resend)
}
