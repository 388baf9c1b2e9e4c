/**
 * The tenant origin, inferred from the embed's own frame: the origin of a frame at an embed address (the spec's
 * `{base_url}/embed/dashboard/<id>…` or in-embed route `/embed/d/<id>/app/…`, or a misspelling of one; a video
 * player's `/embed/` frame is not one) that spoke the protocol: the host received an svc-embed message from that
 * origin, or the embed frame itself posted one. Any frame of a page may be hostile, so what a message says never
 * decides it: a `ready` from a frame that is not at an embed address never sets it. Where several embed frames
 * spoke, the first whose `ready` reached the host is the tenant's, else the first that spoke at all.
 *
 * The facts come from the log: frames' addresses (the browser's navigations, the relays' frames) and records whose
 * frame and origin the extension states (background/batch.ts). A capture file's records are taken as the file says.
 */
import { isEmbedAddress } from './address.ts';
import { isSvcEmbed } from './marker.ts';
import { normalizeOrigin, originOf } from './origin.ts';
import type { CaptureRecord } from './record.ts';

export interface TenantFound {
  origin: string;
  /** The embed frame it came from (the first frame at an embed address on that origin). */
  frameUrl: string;
  /** Its `ready` reached the host (else another of its messages did). */
  ready: boolean;
}

type Evidence = Pick<Partial<CaptureRecord>, 'kind' | 'frameUrl' | 'origin' | 'data' | 'navigation'>;

/** What one record says for an origin: the host received it from there, or an embed frame posted it. */
function spoke(r: Evidence): { origin: string; ready: boolean } | null {
  if (r.navigation || typeof r.origin !== 'string' || !r.origin || r.origin === 'null' || !isSvcEmbed(r.data)) {
    return null;
  }
  const d = r.data as { direction?: unknown; type?: unknown };
  if (d.direction !== 'event') {
    return null;
  }
  const byHost = r.kind === 'receive' && !isEmbedAddress(r.frameUrl);
  const byEmbed = r.kind === 'post' && isEmbedAddress(r.frameUrl);
  return byHost || byEmbed ? { origin: normalizeOrigin(r.origin), ready: d.type === 'svc:event:ready' } : null;
}

/** The tenant origin as the facts come in (the log's order); `current` is what they say so far. */
export class TenantFinder {
  /** Embed frames by origin: the first one's URL. */
  private readonly embeds = new Map<string, string>();
  /** Origins that spoke before an embed frame of theirs was known, in order, and whether with a ready. */
  private readonly waiting = new Map<string, boolean>();
  private found: TenantFound | null = null;

  get current(): TenantFound | null {
    return this.found;
  }

  /** A frame is at `url` (a navigation, a relay's frame, a record's frame); true when the tenant changed. */
  frame(url: string | null | undefined): boolean {
    if (!url) {
      return false;
    }
    // The origin first (cached, and known for every record of a known embed), then the address's shape.
    const origin = originOf(url);
    if (!origin || origin === 'null' || this.embeds.has(origin) || !isEmbedAddress(url)) {
      return false;
    }
    this.embeds.set(origin, url);
    const ready = this.waiting.get(origin);
    this.waiting.delete(origin);
    return ready === undefined ? false : this.consider(origin, ready);
  }

  /** A record of the log; true when the tenant changed. */
  record(r: Evidence): boolean {
    const changed = this.frame(r.frameUrl);
    const s = spoke(r);
    if (!s) {
      return changed;
    }
    if (!this.embeds.has(s.origin)) {
      if (!this.waiting.get(s.origin)) {
        this.waiting.set(s.origin, s.ready);
      }
      return changed;
    }
    return this.consider(s.origin, s.ready) || changed;
  }

  /** `origin`, an embed frame's, spoke (`ready`: a ready): the first ready wins, else the first that spoke. */
  private consider(origin: string, ready: boolean): boolean {
    const f = this.found;
    if (f?.origin === origin) {
      if (ready && !f.ready) {
        this.found = { ...f, ready: true };
      }
      return false;
    }
    if (f && (f.ready || !ready)) {
      return false;
    }
    this.found = { origin, frameUrl: this.embeds.get(origin) ?? '', ready };
    return true;
  }
}

/** The tenant origin of these records (and frames known besides them), or null. */
export function inferTenantOrigin(records: Iterable<Evidence>, frames: Iterable<string> = []): TenantFound | null {
  const finder = new TenantFinder();
  for (const url of frames) {
    finder.frame(url);
  }
  for (const r of records) {
    finder.record(r);
  }
  return finder.current;
}
