/**
 * The panel hop: a panel's port subscribes to a tab, and what it asks for goes to that tab's session (options,
 * tenant origin, Clear, sends to a frame) or to the capture scope (set-capture, with a reload of the tab).
 */
import { MESSAGES_VERSION, type BackgroundToPanel, type PanelToBackground } from '../shared/messages.ts';
import { browserApi, type Runtime } from '../shared/browser-api.ts';
import type { Sessions } from './sessions.ts';
import { withChange, type Scope } from './scope-model.ts';

/** What the panel hop needs of the scope (scope.ts; injected: unit tests give fakes). */
export interface PanelScope {
  updateScope(next: (s: Scope) => Scope): Promise<Scope>;
}

export function onPanelPort(port: Runtime.Port, sessions: Sessions, scope: PanelScope): void {
  let subscribed: number | null = null;
  const reply = (msg: BackgroundToPanel) => {
    try {
      port.postMessage(msg);
    } catch {
      /* gone */
    }
  };

  port.onMessage.addListener((raw: unknown) => {
    const msg = raw as PanelToBackground;
    if (!msg || msg.v !== MESSAGES_VERSION) {
      console.warn('embed-inspector: panel message of another version dropped', msg);
      return;
    }
    const tabId = msg.tabId;
    switch (msg.type) {
      case 'subscribe':
        if (subscribed !== null && subscribed !== tabId) {
          void sessions.get(subscribed).unsubscribe(port);
        }
        subscribed = tabId;
        void sessions.get(tabId).subscribe(port);
        break;
      case 'set-capture': {
        const change = msg.change;
        void scope
          .updateScope((s) => withChange(s, change))
          .then(
            async () => {
              reply({ v: MESSAGES_VERSION, type: 'capture-result', id: msg.id, ok: true });
              if (msg.reload) {
                await browserApi().tabs.reload(tabId);
              }
            },
            (e: Error) =>
              reply({
                v: MESSAGES_VERSION,
                type: 'capture-result',
                id: msg.id,
                ok: false,
                error: e?.message ?? String(e),
              }),
          );
        break;
      }
      case 'reload':
        void Promise.resolve()
          .then(() => browserApi().tabs.reload(tabId))
          .catch(() => {});
        break;
      case 'clear':
        void sessions.get(tabId).clear();
        break;
      // A refused value changes nothing and is logged by the session's chain (the panel checks what it sends).
      case 'set-tenant-origin':
        sessions
          .get(tabId)
          .setTenantOrigin(msg.origin)
          .catch(() => {});
        break;
      case 'set-options':
        sessions
          .get(tabId)
          .setOptions(msg.options)
          .catch(() => {});
        break;
      case 'send':
        void sessions.get(tabId).send(msg, reply);
        break;
    }
  });
  port.onDisconnect.addListener(() => {
    if (subscribed !== null) {
      void sessions.get(subscribed).unsubscribe(port);
    }
  });
}
