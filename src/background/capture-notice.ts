/**
 * When a tab's panels hear of its sites anew: a navigation changes the tab's frames, often several in a row (the
 * top document, then its embeds), so the notice waits until the frames have not changed for CAPTURE_NOTICE_MS and
 * is then due once for the whole burst.
 */

/** A tab's frames changed: its panels get its sites anew once the frames settle for this long. */
export const CAPTURE_NOTICE_MS = 250;

export class CaptureNotice {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  /** `due`: the frames settled (the session then sends the panels the tab's sites). */
  constructor(private readonly due: () => void) {}

  /** The tab's frames changed: the notice is due CAPTURE_NOTICE_MS from now, in place of one waiting. */
  framesChanged(): void {
    clearTimeout(this.timer);
    if (this.closed) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due();
    }, CAPTURE_NOTICE_MS);
  }

  /** The tab is gone: no notice is due any more. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
