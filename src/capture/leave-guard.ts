/**
 * The frame's `pagehide` listener, there only while the frame holds records.
 *
 * A page-lifecycle listener (`pagehide`, `unload`, `beforeunload`) tells the browser that the frame must run script
 * as it goes away, so the browser may no longer end the frame's process at once: Chromium keeps a subframe's process
 * alive after its page navigates or closes, and reuses it for the next frame of that site (measured: a captured
 * embed's process survived each reload of its host page and was reused, where without the extension every reload
 * had a new one). A frame that holds nothing has nothing to hand over as it goes: it keeps no listener, and the
 * browser treats the page as it would without us. The listener is added when the frame starts holding something and
 * removed once everything has left (relay.ts).
 *
 * Likewise the document's `freeze` (Chromium freezes a hidden tab's page, and may then discard it without a
 * `pagehide`): what the frame holds leaves before it is frozen.
 */
export class LeaveGuard {
  private on = false;
  private readonly listener = (e: Event) => this.onLeave(e.isTrusted);

  /**
   * `onLeave` hears whether the browser sent the `pagehide` or `freeze` (any script may dispatch one). `doc`: where
   * `freeze` comes (the frame's document).
   */
  constructor(
    private readonly target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
    private readonly onLeave: (trusted: boolean) => void,
    private readonly doc?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  ) {}

  /** The frame holds something: hand it over if the page goes away or is frozen. */
  hold(): void {
    if (!this.on) {
      this.on = true;
      this.target.addEventListener('pagehide', this.listener, { capture: true });
      this.doc?.addEventListener('freeze', this.listener, { capture: true });
    }
  }

  /** Its listeners added again while it holds something (a document rewrite erased them: rewrite.ts). */
  renew(): void {
    if (this.on) {
      this.on = false;
      this.hold();
    }
  }

  /** The frame holds nothing any more. */
  release(): void {
    if (this.on) {
      this.on = false;
      this.target.removeEventListener('pagehide', this.listener, { capture: true });
      this.doc?.removeEventListener('freeze', this.listener, { capture: true });
    }
  }

  get holding(): boolean {
    return this.on;
  }
}
