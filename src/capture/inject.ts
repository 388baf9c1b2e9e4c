/**
 * Posts asked for by the panel (composer, replay, simulate), run in the frame that must appear as the
 * sender: the top frame posts to a child (an action), the embed frame posts to its parent (an event).
 * Posted from the isolated world: the page's hooks do not see it, so the relay records it itself
 * (`injected: true`); the delivery is recorded by the receiving frame as usual.
 */
import { encode } from '../protocol/encoding.ts';
import { decode } from '../protocol/decode.ts';
import type { BackgroundToRelay, RawRecord } from '../shared/messages.ts';
import { errorText } from './observe.ts';

type PostMsg = Extract<BackgroundToRelay, { type: 'post' }>;

/**
 * The child window for a URL (the embed frame the background chose): the iframe whose src is that URL, else whose
 * origin matches; never another frame (a post pinned to the tenant origin would be dropped there, and said sent).
 */
function findChild(doc: Document, childUrl: string | undefined): { win: Window; url: string } | null {
  const frames = [...doc.querySelectorAll('iframe, frame')] as HTMLIFrameElement[];
  const live = frames.filter((f) => f.contentWindow);
  if (!live.length || !childUrl) {
    return null;
  }
  const origin = (u: string) => {
    try {
      return new URL(u, doc.baseURI).origin;
    } catch {
      return null;
    }
  };
  const pick = live.find((f) => f.src === childUrl) ?? live.find((f) => origin(f.src) === origin(childUrl));
  return pick ? { win: pick.contentWindow!, url: pick.src } : null;
}

export function runPost(
  msg: PostMsg,
  win: Window,
  doc: Document,
  now: () => number,
): { result: { ok: boolean; error?: string }; record?: RawRecord } {
  const data = decode(msg.data);
  let target: Window | null = null;
  let targetUrl: string | undefined;
  if (msg.target === 'parent') {
    if (win.parent !== win) {
      target = win.parent;
    }
  } else {
    const child = findChild(doc, msg.childUrl);
    if (child) {
      target = child.win;
      targetUrl = child.url;
    }
  }
  if (!target) {
    return {
      result: { ok: false, error: msg.target === 'parent' ? 'this frame has no parent' : 'no child frame found' },
    };
  }
  const enc = encode(data);
  const record: RawRecord = {
    time: now(),
    kind: 'post',
    frameUrl: location.href,
    origin: location.origin,
    targetOrigin: msg.targetOrigin,
    target: msg.target,
    data: enc.value,
    injected: true,
  };
  if (targetUrl) {
    record.targetUrl = targetUrl;
  }
  if (enc.truncated) {
    record.originalSize = enc.size;
  }
  try {
    target.postMessage(data, msg.targetOrigin);
    return { result: { ok: true }, record };
  } catch (e) {
    record.error = errorText(e);
    return { result: { ok: false, error: record.error }, record };
  }
}
