/**
 * The panel hop: a panel's port subscribes to a tab, and what it asks for goes to that tab's session (options,
 * tenant origin, Clear, sends to a frame) or to the capture scope (set-capture, with a reload of the tab).
 */
import type { BackgroundToPanel, PanelToBackground } from '../shared/messages.ts';
import { browserApi, type Runtime } from '../shared/browser-api.ts';
import { backgroundPanelChannel, dispatch, type Body } from '../shared/channel.ts';
import type { Sessions } from './sessions.ts';
import { withChange, type Scope } from './scope-model.ts';
import { warnDropped } from './input-checks.ts';

/** What the panel hop needs of the scope (scope.ts; injected: unit tests give fakes). */
export interface PanelScope {
  updateScope(next: (s: Scope) => Scope): Promise<Scope>;
}

export function onPanelPort(port: Runtime.Port, sessions: Sessions, scope: PanelScope): void {
  let subscribed: number | null = null;
  const panel = backgroundPanelChannel(port, warnDropped);
  const reply = (body: Body<BackgroundToPanel>) => {
    try {
      panel.send(body);
    } catch {
      /* gone */
    }
  };

  panel.listen((msg: PanelToBackground) => {
    const tabId = msg.tabId;
    dispatch(msg, {
      subscribe() {
        reply({ type: 'subscribed', tabId }); // (at once: the panel knows this port reaches a running worker)
        if (subscribed !== null && subscribed !== tabId) {
          void sessions.get(subscribed).unsubscribe(panel);
        }
        subscribed = tabId;
        void sessions.get(tabId).subscribe(panel);
      },
      'set-capture'(m) {
        void scope
          .updateScope((s) => withChange(s, m.change))
          .then(
            async () => {
              reply({ type: 'capture-result', id: m.id, ok: true });
              if (m.reload) {
                await browserApi().tabs.reload(tabId);
              }
            },
            (e: Error) => reply({ type: 'capture-result', id: m.id, ok: false, error: e?.message ?? String(e) }),
          );
      },
      reload() {
        void Promise.resolve()
          .then(() => browserApi().tabs.reload(tabId))
          .catch(() => {});
      },
      clear() {
        void sessions.get(tabId).clear();
      },
      // A refused value changes nothing and is logged by the session's chain (the panel checks what it sends).
      'set-tenant-origin'(m) {
        sessions
          .get(tabId)
          .setTenantOrigin(m.origin)
          .catch(() => {});
      },
      'set-options'(m) {
        sessions
          .get(tabId)
          .setOptions(m.options)
          .catch(() => {});
      },
      send(m) {
        void sessions.get(tabId).send(m, reply);
      },
    });
  });
  port.onDisconnect.addListener(() => {
    if (subscribed !== null) {
      void sessions.get(subscribed).unsubscribe(panel);
    }
  });
}
