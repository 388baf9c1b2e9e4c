/**
 * TypeScript types of the protocol, derived from the catalog (catalog.ts) so that they cannot drift.
 */
import type { ACTIONS, EVENTS, FieldKind, Surface } from './catalog.ts';

type KindTS<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'object'
        ? Record<string, unknown>
        : unknown;
type FieldTS<F> =
  | (F extends { enum: readonly (infer E)[] } ? E : F extends { kind: infer K extends FieldKind } ? KindTS<K> : never)
  | (F extends { nullable: true } ? null : never);
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type PayloadOf<Fields> = Simplify<
  { [K in keyof Fields as Fields[K] extends { required: true } ? K : never]: FieldTS<Fields[K]> } & {
    [K in keyof Fields as Fields[K] extends { required: true } ? never : K]?: FieldTS<Fields[K]>;
  }
>;

type EventSpecs = (typeof EVENTS)[number];
type ActionSpecs = (typeof ACTIONS)[number];

/** Payload of an event, by type: `EventPayload<'svc:event:ready'>`. */
export type EventPayload<T extends EventSpecs['type']> = PayloadOf<Extract<EventSpecs, { type: T }>['fields']>;
/** Payload of an action, by type. `set-theme` also takes further embedTheme fields. */
export type ActionPayload<T extends ActionSpecs['type']> = T extends 'svc:action:set-theme'
  ? PayloadOf<Extract<ActionSpecs, { type: T }>['fields']> & Record<string, unknown>
  : PayloadOf<Extract<ActionSpecs, { type: T }>['fields']>;

/** An event envelope (embed → host). */
export type SvcEvent = {
  [T in EventSpecs['type']]: {
    source: 'svc-embed';
    direction: 'event';
    type: T;
    payload: EventPayload<T>;
    timestamp: number;
    surface: Surface;
  };
}[EventSpecs['type']];

/** An action envelope (host → embed): no `surface`. */
export type SvcAction = {
  [T in ActionSpecs['type']]: {
    source: 'svc-embed';
    direction: 'action';
    type: T;
    payload: ActionPayload<T>;
    timestamp: number;
  };
}[ActionSpecs['type']];

export type SvcMessage = SvcEvent | SvcAction;
