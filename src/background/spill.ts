/**
 * What a frame leaves in the extension's storage as it goes (capture/link.ts `spill`): the batches it could not send
 * because no worker answered its port. Chromium stops an idle worker, which closes every port; a frame that then
 * posts and goes within a moment opens a new port to wake the worker, and Chromium drops that port with the frame.
 * A write to `storage.local` outlives the frame and wakes the worker (`storage.onChanged`).
 *
 * Where the batches come from is never the stored value's word. When a relay says hello, the background seals what
 * the browser told it of that port (tab, frame, origin, the page its document is in) with the relay's docId, under
 * an HMAC key kept in `storage.session` for the browser's session, and hands the seal to the relay ('spill-key'); a
 * spill is accepted only under a seal that checks, as from the frame the seal names, numbered as that document's
 * batches (so a batch that came by its port too is stored once: tab-storage.ts `once`). Anything else is removed
 * unread.
 */
import { MESSAGES_VERSION, spillKeyOf, type SpilledBatches } from '../shared/messages.ts';
import { base64ToBytes, bytesToBase64 } from '../protocol/base64.ts';

/**
 * A document's relay as the browser gave it to the background: its tab, frame and origin, the page it is in (the
 * outermost document above it, as the browser names it: tab-relays.ts `pageOf`; null where it cannot tell), and the
 * relay's docId.
 */
export interface SpillClaim {
  tabId: number;
  frameId: number;
  origin: string | null;
  page: string | null;
  docId: string;
}

/** The storage the seal's key lives in (`storage.session`: the browser's session, never written to disk). */
export interface SecretStore {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const SECRET = 'ei-spill-secret';
const enc = new TextEncoder();
const dec = new TextDecoder();
/** (a copy: Web Crypto takes views of an ArrayBuffer only) */
const bytesOf = (b64: string): Uint8Array<ArrayBuffer> => new Uint8Array(base64ToBytes(b64));

/** Seals claims and checks seals with one HMAC-SHA-256 key, made once per browser session. */
export class SpillSeal {
  private key: Promise<CryptoKey> | null = null;

  constructor(private readonly store: SecretStore) {}

  /** The seal of `claim` (what the relay keeps and writes back): the claim's JSON and its HMAC, in base64. */
  async seal(claim: SpillClaim): Promise<string> {
    const { tabId, frameId, origin, page, docId } = claim;
    const body = enc.encode(JSON.stringify([tabId, frameId, origin, page, docId]));
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.secret(), body));
    return `${bytesToBase64(body)}.${bytesToBase64(mac)}`;
  }

  /** The claim a seal names, or null when it is not one of ours (forged, altered, or from an earlier session). */
  async open(seal: unknown): Promise<SpillClaim | null> {
    if (typeof seal !== 'string' || seal.length > 2_000) {
      return null;
    }
    const [b, m, ...rest] = seal.split('.');
    const body = bytesOf(b ?? '');
    const mac = bytesOf(m ?? '');
    if (rest.length || !(await crypto.subtle.verify('HMAC', await this.secret(), mac, body))) {
      return null;
    }
    const [tabId, frameId, origin, page, docId] = JSON.parse(dec.decode(body)) as [
      number,
      number,
      string | null,
      string | null,
      string,
    ];
    return { tabId, frameId, origin, page, docId };
  }

  private secret(): Promise<CryptoKey> {
    this.key ??= this.load();
    this.key.catch(() => {
      this.key = null;
    });
    return this.key;
  }

  private async load(): Promise<CryptoKey> {
    const stored = (await this.store.get(SECRET))[SECRET];
    let raw = typeof stored === 'string' ? bytesOf(stored) : null;
    if (raw?.length !== 32) {
      raw = crypto.getRandomValues(new Uint8Array(32));
      await this.store.set({ [SECRET]: bytesToBase64(raw) });
    }
    return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }
}

/** A stored spill's batches, or null when `value` is not one (of this version, under its own docId's key). */
export function spilledBatches(storageKey: string, value: unknown): SpilledBatches | null {
  const v = value as Partial<SpilledBatches> | null;
  if (
    !v ||
    typeof v !== 'object' ||
    v.v !== MESSAGES_VERSION ||
    v.type !== 'spill' ||
    typeof v.key !== 'string' ||
    typeof v.docId !== 'string' ||
    !Array.isArray(v.batches) ||
    !v.batches.length
  ) {
    return null;
  }
  const ok = v.batches.every(
    (b) =>
      !!b &&
      Number.isSafeInteger(b.batch) &&
      b.batch > 0 &&
      typeof b.json === 'string' &&
      (b.lines === undefined || (Array.isArray(b.lines) && b.lines.every((l) => typeof l === 'string'))),
  );
  return ok && storageKey === spillKeyOf(v as SpilledBatches) ? (v as SpilledBatches) : null;
}

/** What taking a spill needs of the background: whether a tab and a frame's origin are still captured, and intake. */
export interface SpillHost {
  /** The tab is still open and the origin in the capture scope. */
  captured(tabId: number, origin: string | null): Promise<boolean>;
  /**
   * Accept the frame's batch as its port's would have been; resolves once stored (a batch of a page the tab's log has
   * left without preserve log is left out, as that page's log is: tab-session.ts `accept`).
   */
  accept(claim: SpillClaim, batch: SpilledBatches['batches'][number]): Promise<void>;
  remove(storageKey: string): Promise<void>;
  warn(why: string): void;
}

/**
 * Take one stored spill: its batches accepted in their order as from the frame its seal names, then removed. One
 * whose seal does not check, or whose tab is closed or out of the scope now, is removed unread; one that could not be
 * stored stays, for the next start.
 */
export async function takeSpill(seal: SpillSeal, host: SpillHost, storageKey: string, value: unknown): Promise<void> {
  const spill = spilledBatches(storageKey, value);
  const claim = spill && (await seal.open(spill.key));
  if (!spill || !claim || claim.docId !== spill.docId) {
    host.warn(`a stored spill (${storageKey.slice(0, 80)}) that is not one of this session's: removed`);
    await host.remove(storageKey);
    return;
  }
  if (await host.captured(claim.tabId, claim.origin)) {
    for (const b of spill.batches) {
      await host.accept(claim, b);
    }
  }
  await host.remove(storageKey);
}
