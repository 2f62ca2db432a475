import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './store/embedded.ts';
import type { Store } from './store/types.ts';
import { Tables } from './store/types.ts';
import { createKeyService, hashKey, isKeyShaped, keyChecksum } from './keys.ts';
import type { KeyService } from './keys.ts';

describe('API keys carry a CRC32 checksum suffix; keys minted before it keep working', () => {
  let dir: string;
  let store: Store;
  let keys: KeyService;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'key-format-'));
    store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    keys = createKeyService({ store, cacheTtlSeconds: 30 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the CRC-32 (IEEE) of the key in 6 base-62 characters', () => {
    // the CRC-32 check value of "123456789" is 0xCBF43926
    expect(keyChecksum('123456789')).toBe('DtjbWO');
  });

  it('mints key_test_ + 32 random + 6 checksum characters, with its last four kept for display', async () => {
    const org = await keys.createOrg('o');
    const { plaintext, record } = await keys.createKey(org.id, 'sandbox', undefined, { name: 'ci' });
    expect(plaintext).toMatch(/^key_test_[A-Za-z0-9]{38}$/);
    expect(plaintext.slice(-6)).toBe(keyChecksum(plaintext.slice(0, -6)));
    expect(isKeyShaped(plaintext)).toBe(true);
    expect(record.lastFour).toBe(plaintext.slice(-4));
    expect(record.name).toBe('ci');
    expect((await keys.resolve(plaintext, Date.now()))?.id).toBe(record.id);
  });

  it('refuses a key whose checksum does not match without reading the store', async () => {
    const org = await keys.createOrg('o');
    const { plaintext } = await keys.createKey(org.id, 'sandbox');
    const i = 12;
    const typo = plaintext.slice(0, i) + (plaintext[i] === 'a' ? 'b' : 'a') + plaintext.slice(i + 1);
    expect(isKeyShaped(typo)).toBe(false);
    // the record exists under the typo's hash: a checksum failure must not even look
    await store.upsert(Tables.apiKeys, [{ key: hashKey(typo), version: 1, body: JSON.stringify({ orgId: org.id, plan: 'sandbox', kind: 'test', displayPrefix: typo.slice(0, 13), createdAt: new Date().toISOString() }) }]);
    expect(await keys.resolve(typo, Date.now())).toBeUndefined();
  });

  it('resolves a legacy key of 32 random characters and no checksum', async () => {
    const org = await keys.createOrg('o');
    const legacy = `key_test_${'A1b2C3d4'.repeat(4)}`;
    await store.upsert(Tables.apiKeys, [{ key: hashKey(legacy), version: 1, body: JSON.stringify({ orgId: org.id, plan: 'sandbox', kind: 'test', displayPrefix: legacy.slice(0, 13), createdAt: new Date().toISOString() }) }]);
    const rec = await keys.resolve(legacy, Date.now());
    expect(rec?.orgId).toBe(org.id);
    expect(rec?.lastFour).toBeUndefined();
  });
});
