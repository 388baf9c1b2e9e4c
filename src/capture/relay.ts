/**
 * Isolated-world content script (every frame, document_start): the thin relay between the MAIN world and
 * the background.
 *
 * - Receives the MAIN world's records (posts and deliveries in the frame's order, private DOM events with
 *   string details, see page.ts) and splices them into its batches, unparsed.
 * - Sends the batches to the background over a Port (see link.ts: acknowledged, resent, never lost).
 * - Passes the tab's capture config to the MAIN world; runs the posts the panel asks for (inject.ts).
 * It never posts a message of its own to the page, and makes no network request.
 */
import {
  CHANNEL_PAGE_RECORDS,
  CHANNEL_RELAY_TO_PAGE,
  MESSAGES_VERSION,
  type BackgroundToRelay,
  type RelayToBackground,
  type RelayToPage,
} from '../shared/messages.ts';
import { findBrowserApi, type Runtime } from '../shared/browser-api.ts';
import { Link } from './link.ts';
import { runPost } from './inject.ts';

(() => {
  const api = findBrowserApi();
  if (!api?.runtime?.connect) {
    return;
  }
  const KEY = '__embedInspectorRelay';
  const g = globalThis as Record<string, unknown>;
  if (g[KEY]) {
    return;
  }
  g[KEY] = true;

  const now = () => performance.timeOrigin + performance.now();
  const isTop = window === window.top;
  const toPage = (msg: RelayToPage) =>
    document.dispatchEvent(new CustomEvent(CHANNEL_RELAY_TO_PAGE, { detail: JSON.stringify(msg) }));

  const post = (msg: Extract<BackgroundToRelay, { type: 'post' }>): RelayToBackground => {
    const { result, record } = runPost(msg, window, document, now);
    if (record) {
      link.push(JSON.stringify(record));
    }
    return { v: MESSAGES_VERSION, type: 'post-result', id: msg.id, ...result };
  };
  const link = new Link({
    runtime: api.runtime,
    hello: () => ({ frameUrl: location.href, isTop, time: now() }),
    onMessage(msg: BackgroundToRelay) {
      if (msg.type === 'config') {
        toPage({ v: MESSAGES_VERSION, type: 'config', config: msg.config });
      } else if (msg.type === 'post') {
        link.send(post(msg));
      }
    },
  });
  // A post asked for while this frame's port is closed (the service worker stopped during a quiet period and
  // nothing was sent since): the background reaches the frame by tabs.sendMessage and gets the result as
  // the reply; the record of the post reconnects the port.
  // (answered synchronously through `reply`, so the listener returns nothing: the type only knows `true`)
  const onPost = (raw: unknown, _sender: unknown, reply: (r: RelayToBackground) => void): void => {
    const msg = raw as BackgroundToRelay;
    if (!msg || msg.v !== MESSAGES_VERSION || msg.type !== 'post') {
      return;
    }
    reply(post(msg));
  };
  api.runtime.onMessage?.addListener(onPost as unknown as Runtime.OnMessageListener);

  // The page hands records over once its frame is quiet (outbox.ts): send them on at the end of this task.
  document.addEventListener(CHANNEL_PAGE_RECORDS, (e) => {
    const detail = (e as CustomEvent).detail;
    if (typeof detail === 'string' && detail) {
      link.push(detail, true);
    }
  });

  // Leaving the page (or entering the back/forward cache): send what is queued now.
  // The MAIN world hands over every record it holds synchronously first.
  window.addEventListener(
    'pagehide',
    () => {
      toPage({ v: MESSAGES_VERSION, type: 'flush' });
      link.flush();
    },
    true,
  );
  window.addEventListener(
    'pageshow',
    (e) => {
      if ((e as PageTransitionEvent).persisted) {
        link.start();
      }
    },
    true,
  );

  link.start();
})();
