/**
 * The capture hop: ports from the relays (one per frame and document). A relay whose frame's origin is out of the
 * capture scope (Firefox: another port of a captured host, whose pattern cannot name the port; any browser: a page
 * loaded before its site was removed) is told to pause and nothing it sends is stored; it never opens a tab's log.
 * What a relay in scope says goes to its tab's session.
 */
import { MESSAGES_VERSION, type CaptureMode, type RelayToBackground } from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { originOf } from '../protocol/origin.ts';
import { configOf } from './session.ts';
import type { Sessions } from './sessions.ts';
import { newState } from './tablog.ts';
import { RelayPort } from './relay-port.ts';

type Sender = Runtime.MessageSender & { documentId?: string; origin?: string };

/** What the capture hop needs of the scope (scope.ts; injected: unit tests give fakes). */
export interface CaptureScope {
  /** Resolves once the stored scope is loaded. */
  ready: Promise<void>;
  frameMode(origin: string | null): CaptureMode | null;
}

/** A frame's origin: the sender's (Chromium gives an about:blank frame its creator's), else its URL's. */
const originOfSender = (sender: Sender | undefined, frameUrl: string): string | null =>
  (sender?.origin && sender.origin !== 'null' ? sender.origin : null) ?? originOf(frameUrl);

export function onCapturePort(port: Runtime.Port, sessions: Sessions, scope: CaptureScope): void {
  const sender = port.sender as Sender | undefined;
  const senderTab = sender?.tab?.id;
  if (senderTab === undefined || senderTab < 0) {
    port.disconnect();
    return;
  }
  const tabId: number = senderTab;
  const relay = new RelayPort(port, tabId, sender?.frameId ?? 0);

  // Messages are handled in the order they came, once the scope is loaded: a frame's batches reach the tab's
  // chain after its hello (which may start the tab's log).
  let gate: Promise<void> = scope.ready;
  port.onMessage.addListener((raw: unknown) => {
    const msg = raw as RelayToBackground;
    if (!msg || msg.v !== MESSAGES_VERSION) {
      console.warn('embed-inspector: message of another version dropped', msg);
      return;
    }
    if (msg.type === 'post-result') {
      sessions.peek(tabId)?.sendResult(msg);
      return;
    }
    gate = gate.then(
      () => handle(msg),
      () => handle(msg),
    );
  });
  function handle(msg: Exclude<RelayToBackground, { type: 'post-result' }>): void {
    switch (msg.type) {
      case 'hello': {
        const origin = originOfSender(sender, msg.frameUrl);
        const mode = scope.frameMode(origin);
        relay.hello(origin, mode);
        if (mode === null) {
          relay.config(configOf(newState(tabId), null, sessions.maxBytes()));
          return;
        }
        if (relay.frameId === 0) {
          sessions.setScoped(tabId, true);
        }
        void sessions.get(tabId).attachRelay(relay, msg, sender?.documentId);
        return;
      }
      case 'flushed':
        // After the batches of that hand-over (one port, in order): they are on the session's chain already.
        sessions.peek(tabId)?.flushed(msg.id);
        return;
      case 'records':
        // Out of scope: not stored, only acknowledged, so that the relay lets the batch go.
        if (relay.outOfScope) {
          relay.ack(msg.batch);
          return;
        }
        // Stored now, processed later (session.ts, deferred processing): a burst costs the page little.
        void sessions.get(tabId).ingest(relay, msg);
        return;
    }
  }
  port.onDisconnect.addListener(() => {
    // At once (a hello still waiting for the scope then attaches nothing: see TabSession.attachRelay).
    relay.closed();
    void sessions.peek(tabId)?.detachRelay(relay);
  });
}
