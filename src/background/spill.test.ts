import { describe, expect, it } from 'vitest';
import { MESSAGES_VERSION, SPILL_PREFIX, spillKeyOf } from '../shared/messages.ts';
import { bytesToBase64 } from '../protocol/base64.ts';
import { SpillSeal, spilledBatches, takeSpill, type SecretStore, type SpillClaim, type SpillHost } from './spill.ts';

/** A `storage.session` of one browser session (a new one: another session's key). */
const session = (): SecretStore => {
  const items: Record<string, unknown> = {};
  return {
    get: async (k) => (k in items ? { [k]: items[k] } : {}),
    set: async (o) => {
      Object.assign(items, o);
    },
  };
};
const claim: SpillClaim = { tabId: 7, frameId: 3, origin: 'https://embed.example', page: 'D1', docId: 'doc1' };
const KEY = `${SPILL_PREFIX}doc1/4-5`;
const spillOf = (key: string, docId = 'doc1') => ({
  v: MESSAGES_VERSION,
  type: 'spill',
  key,
  docId,
  batches: [
    { batch: 4, json: '[{"n":4}]' },
    { batch: 5, json: '[{"kind":"post","frameUrl":"https://embed.example/","line":true}]', lines: ['1\t{}'] },
  ],
});

/** A background that records what it is asked to do. */
function host(captured = true, failAccept = false) {
  const did: string[] = [];
  const h: SpillHost = {
    captured: async (tabId, origin) => {
      did.push(`captured? ${tabId} ${origin}`);
      return captured;
    },
    accept: async (c, b) => {
      if (failAccept) {
        throw new Error('the disk is full');
      }
      did.push(`accept ${c.tabId}/${c.frameId} ${c.origin} ${c.docId} #${b.batch}`);
    },
    remove: async (k) => {
      did.push(`remove ${k}`);
    },
    warn: () => {
      did.push('warn');
    },
  };
  return { h, did };
}

describe('the seal on what a frame leaves in storage as it goes', () => {
  it('opens to the claim it sealed, in the session that sealed it', async () => {
    const seal = new SpillSeal(session());
    expect(await seal.open(await seal.seal(claim))).toEqual(claim);
    const bare = { ...claim, origin: null, page: null };
    expect(await seal.open(await seal.seal(bare))).toEqual(bare);
  });

  it('refuses a claim altered, a seal of another session, and what is no seal', async () => {
    const store = session();
    const seal = new SpillSeal(store);
    const [, mac] = (await seal.seal(claim)).split('.');
    const forged = [7, 0, 'https://victim.example', 'doc1'];
    const altered = `${bytesToBase64(new TextEncoder().encode(JSON.stringify(forged)))}.${mac}`;
    expect(await seal.open(altered)).toBeNull();
    const elsewhere = await new SpillSeal(session()).seal(claim);
    expect(await seal.open(elsewhere)).toBeNull();
    for (const junk of [undefined, 42, '', 'a.b', 'a.b.c', `${'x'.repeat(3000)}.y`]) {
      expect(await seal.open(junk)).toBeNull();
    }
    // (a worker started again in the same session opens what the one before sealed)
    expect(await new SpillSeal(store).open(await seal.seal(claim))).toEqual(claim);
  });
});

describe('taking a spill', () => {
  it('accepts its batches in order as from the frame its seal names, then removes it', async () => {
    const seal = new SpillSeal(session());
    const { h, did } = host();
    expect(spillKeyOf(spillOf('k'))).toBe(KEY);
    await takeSpill(seal, h, KEY, spillOf(await seal.seal(claim)));
    expect(did).toEqual([
      'captured? 7 https://embed.example',
      'accept 7/3 https://embed.example doc1 #4',
      'accept 7/3 https://embed.example doc1 #5',
      `remove ${KEY}`,
    ]);
  });

  it('removes unread a forged seal, another document under the seal, or a value of the wrong shape', async () => {
    const seal = new SpillSeal(session());
    const other = await new SpillSeal(session()).seal(claim);
    const good = await seal.seal(claim);
    const cases: Array<[string, unknown]> = [
      [KEY, spillOf(other)],
      [`${SPILL_PREFIX}doc2/4-5`, spillOf(good, 'doc2')],
      [`${SPILL_PREFIX}doc9/4-5`, spillOf(good)],
      [`${SPILL_PREFIX}doc1/4-9`, spillOf(good)],
      [KEY, { ...spillOf(good), v: MESSAGES_VERSION - 1 }],
      [`${SPILL_PREFIX}doc1/-1--1`, { ...spillOf(good), batches: [{ batch: -1, json: '[]' }] }],
      [`${SPILL_PREFIX}doc1/1-1`, { ...spillOf(good), batches: [{ batch: 1, json: '[]', lines: [7] }] }],
      [`${SPILL_PREFIX}doc1/-`, { ...spillOf(good), batches: [] }],
      [KEY, 'not an object'],
    ];
    for (const [key, value] of cases) {
      const { h, did } = host();
      await takeSpill(seal, h, key, value);
      expect(did).toEqual(['warn', `remove ${key}`]);
    }
  });

  it('removes unread a spill whose tab is closed or out of the scope now', async () => {
    const seal = new SpillSeal(session());
    const { h, did } = host(false);
    await takeSpill(seal, h, KEY, spillOf(await seal.seal(claim)));
    expect(did).toEqual(['captured? 7 https://embed.example', `remove ${KEY}`]);
  });

  it('keeps a spill it could not store, for the next start', async () => {
    const seal = new SpillSeal(session());
    const { h, did } = host(true, true);
    await expect(takeSpill(seal, h, KEY, spillOf(await seal.seal(claim)))).rejects.toThrow('full');
    expect(did.filter((d) => d.startsWith('remove'))).toEqual([]);
  });
});

describe('a stored spill as read', () => {
  it('is the value under its own document only', () => {
    expect(spilledBatches(KEY, spillOf('k'))).not.toBeNull();
    expect(spilledBatches(KEY, null)).toBeNull();
    expect(spilledBatches(KEY, { ...spillOf('k'), type: 'records' })).toBeNull();
  });
});
