/**
 * When the next limit of a tab's diagnosis runs out (protocol/diagnose.ts: an embed that has not said ready, a
 * dashboard not loaded, an AI query without its answer): the session judges the tab again then. One limit is
 * watched at a time, the earliest the log reports.
 */
export class LimitTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  /** `due`: the watched limit ran out. */
  constructor(
    private readonly due: () => void,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Watch the limit that runs out at `at` (epoch ms; null: none), in place of the one watched. */
  watch(at: number | null): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (at === null || this.closed) {
      return;
    }
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.due();
      },
      Math.max(0, at - this.clock()) + 5,
    );
  }

  /** The tab is gone: nothing is watched any more. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
