/**
 * MAIN world -> relay: record JSON strings collected and handed to the isolated relay of the same frame in
 * a few large private CustomEvents (never a `message` event). Posts go at the end of the posting task (a
 * post should reach the background before its delivery, seen by another frame); deliveries go in one
 * event per RECEIVE_DELAY_MS at most, so a burst of deliveries costs one event per slice, not per message.
 */
import { CHANNEL_PAGE_POSTS, CHANNEL_PAGE_RECEIVES } from '../shared/messages.ts';

/** Bound of one event's detail, UTF-16 units. */
const MAX_EVENT_CHARS = 1_000_000;
export const RECEIVE_DELAY_MS = 10;
// Captured at document_start, before the page can replace them.
const setTimer = setTimeout;
const CE = CustomEvent;

export class Outbox {
  private receives: string[] = [];
  private chars = 0;
  private timer = false;
  private readonly dispatch: (e: Event) => boolean;

  constructor(doc: Document) {
    this.dispatch = doc.dispatchEvent.bind(doc);
  }

  /** Send the JSON of several post records (joined by commas) now. */
  posts(joined: string): void {
    if (joined) this.dispatch(new CE(CHANNEL_PAGE_POSTS, { detail: joined }));
  }

  /** Queue the JSON of one delivery record. */
  receive(json: string): void {
    this.receives.push(json);
    this.chars += json.length;
    if (this.chars >= MAX_EVENT_CHARS) this.flush();
    else if (!this.timer) { this.timer = true; setTimer(this.onTimer, RECEIVE_DELAY_MS); }
  }

  private onTimer = () => { this.timer = false; this.flush(); };

  /** Send the queued deliveries now (the timer, the size bound, or the relay before the page goes away). */
  flush(): void {
    if (!this.receives.length) return;
    const detail = this.receives.join(',');
    this.receives = [];
    this.chars = 0;
    this.dispatch(new CE(CHANNEL_PAGE_RECEIVES, { detail }));
  }
}
