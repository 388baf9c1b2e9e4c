/**
 * One typed channel per hop (messages.ts declares the maps). Every context sends and listens through here, so:
 * - a sent message is stamped with MESSAGES_VERSION here and nowhere else (callers write the body only);
 * - a received one is checked here: another version, or something that is not a message, is dropped, never misread
 *   (a stale content script after an extension update talks to a new background);
 * - a receiver that dispatches by type names every type of its hop (`Handlers<M>`): adding a message type to a map
 *   breaks the build until each receiver handles it.
 * The transport is the caller's ("wall" in React DevTools' bridge): a runtime Port, or a DOM event between worlds.
 */
import {
  MESSAGES_VERSION,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type PanelToBackground,
  type RelayToBackground,
  type RelayToPage,
} from './messages.ts';

/** What every hop's message is: a version and a type. */
export interface Versioned {
  v: number;
  type: string;
}
/** A message as its sender writes it: everything but the version. */
export type Body<M extends Versioned> = M extends unknown ? Omit<M, 'v'> : never;
/** One handler per type of a hop; a missing type is a type error. */
export type Handlers<M extends { type: string }> = { [K in M['type']]: (msg: Extract<M, { type: K }>) => void };

/** The names of the hops, as logs and drop reports say them. */
export type HopName =
  | 'relay->page'
  | 'relay->background'
  | 'background->relay'
  | 'panel->background'
  | 'background->panel';

/** What a channel needs of a runtime Port (webextension-polyfill's Runtime.Port has it). */
export interface Wall {
  postMessage(msg: unknown): void;
  onMessage: {
    addListener(fn: (msg: unknown) => void): void;
    removeListener(fn: (msg: unknown) => void): void;
  };
}

/** The message `body` with the hop's version. */
export function stamp<M extends Versioned>(body: Body<M>): M {
  return { ...body, v: MESSAGES_VERSION } as unknown as M;
}

/**
 * `raw` as a message of the hop `M`, or null (and `onDrop` told why) when it is not one of this version. The type
 * is the sender's word: a message of this version comes from this build of the extension.
 */
export function accept<M extends Versioned>(
  hop: HopName,
  raw: unknown,
  onDrop?: (why: string, raw: unknown) => void,
): M | null {
  if (!raw || typeof raw !== 'object' || typeof (raw as Versioned).type !== 'string') {
    onDrop?.(`${hop}: not a message`, raw);
    return null;
  }
  if ((raw as Versioned).v !== MESSAGES_VERSION) {
    onDrop?.(`${hop}: a message of version ${String((raw as Versioned).v)} dropped`, raw);
    return null;
  }
  return raw as M;
}

/** Calls the handler of `msg`'s type. */
export function dispatch<M extends { type: string }>(msg: M, handlers: Handlers<M>): void {
  (handlers as unknown as Record<string, (m: M) => void>)[msg.type](msg);
}

/** One end of a port hop: sends `Out`, hears `In`. */
export interface Channel<Out extends Versioned, In extends Versioned> {
  /** Stamps and posts; throws as Port.postMessage does when the port is gone (callers decide what that means). */
  send(body: Body<Out>): void;
  /** Hears the hop's messages of this version; returns the unsubscribe. */
  listen(on: (msg: In) => void): () => void;
}

function portChannel<Out extends Versioned, In extends Versioned>(
  hop: HopName,
  wall: Wall,
  onDrop?: (why: string, raw: unknown) => void,
): Channel<Out, In> {
  return {
    send(body) {
      wall.postMessage(stamp<Out>(body));
    },
    listen(on) {
      const fn = (raw: unknown) => {
        const msg = accept<In>(hop, raw, onDrop);
        if (msg) {
          on(msg);
        }
      };
      wall.onMessage.addListener(fn);
      return () => wall.onMessage.removeListener(fn);
    },
  };
}

type DropLog = (why: string, raw: unknown) => void;

/** The relay's end of its port to the background. */
export const relayChannel = (port: Wall, onDrop?: DropLog) =>
  portChannel<RelayToBackground, BackgroundToRelay>('background->relay', port, onDrop);
/** The background's end of a relay's port. */
export const backgroundRelayChannel = (port: Wall, onDrop?: DropLog) =>
  portChannel<BackgroundToRelay, RelayToBackground>('relay->background', port, onDrop);
/** The panel's end of its port to the background. */
export const panelChannel = (port: Wall, onDrop?: DropLog) =>
  portChannel<PanelToBackground, BackgroundToPanel>('background->panel', port, onDrop);
/** The background's end of a panel's port. */
export const backgroundPanelChannel = (port: Wall, onDrop?: DropLog) =>
  portChannel<BackgroundToPanel, PanelToBackground>('panel->background', port, onDrop);

/** relay -> page (a DOM event's string detail, not a port): the JSON the relay dispatches. */
export function relayToPageDetail(body: Body<RelayToPage>): string {
  return JSON.stringify(stamp<RelayToPage>(body));
}
/** page side of relay -> page: the message in a detail, or null (not JSON, another version). */
export function readRelayToPage(detail: unknown): RelayToPage | null {
  if (typeof detail !== 'string') {
    return null;
  }
  try {
    return accept<RelayToPage>('relay->page', JSON.parse(detail));
  } catch {
    return null;
  }
}
