/**
 * Replay of captured actions: an ordered queue with the original timing (scaled by speed) or step by step.
 * Pure logic with an injectable clock, so the panel drives it and tests run it without waiting.
 */
export interface ReplayStep<T> {
  item: T /** ms after the previous step, at speed 1 */;
  delay: number;
}
export interface ReplayState {
  index: number;
  total: number;
  playing: boolean;
  done: boolean;
}

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** ms, monotonic: what a send took is taken off the wait for the next (absent: nothing is). */
  now?(): number;
}
const realClock: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** Steps from records with a `time` (epoch ms): delays are the gaps between them; the first has none. */
export function stepsFrom<T extends { time: number }>(items: readonly T[]): ReplayStep<T>[] {
  const sorted = [...items].sort((a, b) => a.time - b.time);
  return sorted.map((item, i) => ({ item, delay: i === 0 ? 0 : Math.max(0, item.time - sorted[i - 1].time) }));
}

export class Replayer<T> {
  private index = 0;
  private playing = false;
  private timer: unknown = null;
  constructor(
    private steps: ReplayStep<T>[],
    private send: (item: T, index: number) => void | Promise<void>,
    private opts: { speed?: number; maxDelay?: number; clock?: Clock; onChange?: (s: ReplayState) => void } = {},
  ) {}

  get state(): ReplayState {
    return {
      index: this.index,
      total: this.steps.length,
      playing: this.playing,
      done: this.index >= this.steps.length,
    };
  }

  /** Play from the current step with the original timing, divided by `speed`. */
  play(): void {
    if (this.playing || this.state.done) {
      return;
    }
    this.playing = true;
    this.changed();
    this.schedule(this.index === 0 ? 0 : this.delayOf(this.index));
  }

  pause(): void {
    if (!this.playing) {
      return;
    }
    this.playing = false;
    (this.opts.clock ?? realClock).clearTimeout(this.timer);
    this.timer = null;
    this.changed();
  }

  /** Send the next step now (paused or not). */
  async step(): Promise<void> {
    if (this.state.done) {
      return;
    }
    const i = this.index++;
    await this.send(this.steps[i].item, i);
    this.changed();
  }

  stop(): void {
    this.pause();
    this.index = 0;
    this.changed();
  }

  private delayOf(i: number): number {
    const d = this.steps[i].delay / (this.opts.speed ?? 1);
    return Math.min(d, this.opts.maxDelay ?? 60_000);
  }

  private schedule(ms: number): void {
    const clock = this.opts.clock ?? realClock;
    this.timer = clock.setTimeout(async () => {
      if (!this.playing) {
        return;
      }
      const started = clock.now?.() ?? 0;
      await this.step();
      if (this.state.done) {
        this.playing = false;
        this.changed();
        return;
      }
      if (this.playing) {
        // The recorded gap runs from this send's start: its round trip (panel, worker, frame, back) is not added to
        // it, so a slow answer does not stretch the timing (the sends stay one after another).
        const spent = (clock.now?.() ?? started) - started;
        this.schedule(Math.max(0, this.delayOf(this.index) - spent));
      }
    }, ms);
  }

  private changed(): void {
    this.opts.onChange?.(this.state);
  }
}
