/** A typed event emitter: one map from event names to payloads, listeners per name, called in subscription order. */
export type Listener<T> = (payload: T) => void;

export class Emitter<M extends object> {
  private listeners: { [K in keyof M]?: Array<Listener<M[K]>> } = {};

  /** Listen to one event; returns the function that stops listening. */
  on<K extends keyof M>(type: K, fn: Listener<M[K]>): () => void {
    const list = (this.listeners[type] ??= []);
    list.push(fn);
    return () => {
      const k = list.indexOf(fn);
      if (k >= 0) {
        list.splice(k, 1);
      }
    };
  }

  emit<K extends keyof M>(type: K, payload: M[K]): void {
    const list = this.listeners[type];
    if (list) {
      for (const fn of list.slice()) {
        fn(payload);
      }
    }
  }
}
