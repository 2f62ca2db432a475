import { hash, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Log } from './log/types.ts';
import type { Store } from './store/types.ts';
import { Tables } from './store/types.ts';
import { ApiError } from '../schemas/errors.ts';
import { Topics } from '../schemas/events.ts';
import { ApiKeyBody, KeyLimitOverrides } from '../schemas/keys.ts';
import type { Plan } from '../schemas/keys.ts';

export type ApiKeyRecord = ApiKeyBody & { id: string };

const OrgBody = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  live: z.boolean(),
  /** execution venues the organisation is entitled to trade on live (a sandbox organisation trades on paper only) */
  venues: z.array(z.string()).default([]),
  /** going live from the console: when and by whom pricing and terms were accepted (ISO time, member id) */
  termsAcceptedAt: z.string().optional(),
  termsAcceptedBy: z.string().optional(),
});
export type Org = z.infer<typeof OrgBody>;

/** Keys are stored by the SHA-256 of the plaintext: the plaintext is shown once and never kept. */
export function hashKey(plaintext: string): string {
  // the one-shot digest: on every call, and twice as fast as a Hash object
  return hash('sha256', plaintext, 'hex');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** keys minted before the checksum: 32 random characters; they keep working */
const LEGACY_KEY_SHAPE = /^key_(test|live)_[A-Za-z0-9]{32}$/;
/** keys with the checksum: 32 random characters, then 6 of CRC32 */
const KEY_SHAPE = /^key_(test|live)_[A-Za-z0-9]{38}$/;
const CHECKSUM_CHARS = 6;

/** CRC32 of the text in base 62, 6 characters (62^6 > 2^32), as GitHub's tokens carry */
export function keyChecksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * Whether a text is shaped like one of our keys: a checksummed key whose last 6 characters are
 * the CRC32 of the rest (a leaked key is recognisable offline, a mistyped one is refused without
 * a store read), or a key minted before the checksum.
 */
export function isKeyShaped(plaintext: string): boolean {
  if (LEGACY_KEY_SHAPE.test(plaintext)) return true;
  if (!KEY_SHAPE.test(plaintext)) return false;
  const cut = plaintext.length - CHECKSUM_CHARS;
  return keyChecksum(plaintext.slice(0, cut)) === plaintext.slice(cut);
}

function randomToken(n: number): string {
  const bytes = randomBytes(n * 2);
  let out = '';
  for (let i = 0; out.length < n && i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === n ? out : randomToken(n);
}

export interface KeyService {
  createOrg(name: string): Promise<Org>;
  getOrg(id: string): Promise<Org | undefined>;
  /**
   * returns the plaintext once; overrides (enterprise only) raise or lower the plan's limits for
   * this key; `maxActive` (the self-serve surfaces' cap): refused with key_limit when the
   * organisation already holds that many unrevoked keys
   */
  createKey(orgId: string, plan: Plan, overrides?: KeyLimitOverrides, opts?: { name?: string; maxActive?: number }): Promise<{ plaintext: string; record: ApiKeyRecord }>;
  /** resolves a presented key through the cache (TTL); undefined when unknown or revoked */
  resolve(plaintext: string, now: number): Promise<ApiKeyRecord | undefined>;
  /**
   * the cache's answer for a presented key, without waiting: the record, null when the key is
   * known to be unknown or revoked, undefined when the cache does not know (then `resolve`)
   */
  cached(plaintext: string, now: number): ApiKeyRecord | null | undefined;
  revoke(keyId: string, now: number): Promise<boolean>;
  /** going live revokes every sandbox key of the org */
  goLive(orgId: string, now: number, accepted?: { by: string }): Promise<{ revoked: number }>;
  /** entitle (or, with `on` false, disentitle) an organisation to an execution venue */
  entitle(orgId: string, venue: string, on: boolean, now: number): Promise<Org>;
  /** one key by its id (the hash), revoked ones included */
  get(keyId: string): Promise<ApiKeyRecord | undefined>;
  list(orgId?: string): Promise<ApiKeyRecord[]>;
  /** drop a cached key (revocation published by another process) */
  forget(keyId: string): void;
}

export interface KeyServiceDeps {
  store: Store;
  log?: Log;
  cacheTtlSeconds: number;
  /** valid keys the cache holds at most (least recently used dropped first); default 100,000 */
  cacheMax?: number;
  /** unknown or revoked keys it holds at most, apart, so a flood of them never drops a valid key; default 10,000 */
  negativeCacheMax?: number;
}

export function createKeyService(deps: KeyServiceDeps): KeyService {
  const { store, log } = deps;
  /**
   * presented key → its record for the TTL: looked up by the plaintext the caller sent, so a cached
   * call neither checks the shape nor hashes (the plaintext lives only in this process's memory,
   * as it does in the request); ids map back to it so that a revocation drops it. Valid keys and
   * unknown or revoked ones are held apart, each a bounded LRU (lru-cache). A hit changes no Map:
   * an LRU that re-inserts its entry on every hit (delete + set) rehashes the Map's table, which V8
   * allocates in the old generation when the Map is old, so every cached call grew it (under load
   * a major GC of the process's whole heap every few seconds, each a stall of the reads);
   * lru-cache keeps the order in typed arrays and allocates nothing on a hit.
   */
  const presentedById = new Map<string, string>();
  const valid = new LRUCache<string, { record: ApiKeyRecord; expiresAt: number }>({
    max: deps.cacheMax ?? 100_000,
    // a key dropped to make room no longer maps back
    dispose: (v, _plaintext, reason) => {
      if (reason === 'evict') presentedById.delete(v.record.id);
    },
  });
  const invalid = new LRUCache<string, { expiresAt: number }>({ max: deps.negativeCacheMax ?? 10_000 });
  /** revocations seen so far: a read that began before one does not cache what it read */
  let drops = 0;
  const drop = (keyId: string) => {
    drops++;
    const plaintext = presentedById.get(keyId);
    if (plaintext !== undefined) valid.delete(plaintext);
    presentedById.delete(keyId);
  };
  const ttlMs = deps.cacheTtlSeconds * 1000;
  /**
   * A key in use is read again in the background during the last quarter of its TTL, so its entry
   * is renewed before it expires and no call waits on the store at the expiry. Before, every call
   * of a busy key stalled on the store once a TTL (in `intel start` the API thread's store is the
   * engine's thread, busy at a low priority: the paced bench saw 125-200 ms stalls). What is served
   * is never older than the TTL: a refresh that fails leaves the entry to expire as before.
   */
  const refreshAheadMs = ttlMs / 4;
  /** the reads in flight by presented key: concurrent misses of one key share one read */
  const loading = new Map<string, Promise<ApiKeyRecord | undefined>>();
  function load(plaintext: string, now: number): Promise<ApiKeyRecord | undefined> {
    let p = loading.get(plaintext);
    if (!p) {
      const seen = drops;
      p = (async () => {
        const id = hashKey(plaintext);
        const rec = await read(id);
        const live = rec && !rec.revokedAt ? rec : undefined;
        if (seen === drops) {
          const expiresAt = now + ttlMs;
          if (live) {
            invalid.delete(plaintext);
            valid.set(plaintext, { record: live, expiresAt });
            presentedById.set(id, plaintext);
          } else {
            // a renewal that finds the key revoked (by another process) or gone ends it now
            valid.delete(plaintext);
            presentedById.delete(id);
            invalid.set(plaintext, { expiresAt });
          }
        }
        return live;
      })().finally(() => loading.delete(plaintext));
      loading.set(plaintext, p);
    }
    return p;
  }

  async function read(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await store.get(Tables.apiKeys, id);
    if (!row) return undefined;
    return { ...ApiKeyBody.parse(JSON.parse(row.body)), id };
  }

  async function write(rec: ApiKeyRecord, version: number): Promise<void> {
    const { id, ...body } = rec;
    await store.upsert(Tables.apiKeys, [{ key: id, version, body: JSON.stringify(body) }]);
  }

  async function mint(orgId: string, plan: Plan, overrides: KeyLimitOverrides | undefined, opts: { name?: string } | undefined): Promise<{ plaintext: string; record: ApiKeyRecord }> {
    const limits = overrides === undefined ? undefined : KeyLimitOverrides.parse(overrides);
    if (limits && Object.values(limits).some((v) => v !== undefined) && plan !== 'enterprise') {
      throw new Error(`limit overrides are set on enterprise keys only (the ${plan} plan's limits are published)`);
    }
    const org = await svc.getOrg(orgId);
    if (!org) throw new Error(`unknown organisation ${orgId}`);
    const kind = plan === 'sandbox' ? 'test' : 'live';
    if (kind === 'live' && !org.live) throw new Error(`organisation ${orgId} has not gone live: only sandbox keys can be minted`);
    if (kind === 'test' && org.live) throw new Error(`organisation ${orgId} is live: sandbox keys are no longer minted`);
    const body = `key_${kind}_${randomToken(32)}`;
    const plaintext = `${body}${keyChecksum(body)}`;
    const record: ApiKeyRecord = {
      id: hashKey(plaintext),
      orgId,
      plan,
      kind,
      displayPrefix: plaintext.slice(0, 13),
      lastFour: plaintext.slice(-4),
      createdAt: new Date().toISOString(),
      ...(opts?.name ? { name: opts.name } : {}),
      ...(limits && Object.keys(limits).length > 0 ? { overrides: limits } : {}),
    };
    await write(record, Date.now());
    return { plaintext, record };
  }

  /** per organisation: the capped mint in flight, which the next one waits for */
  const capped = new Map<string, Promise<void>>();

  const svc: KeyService = {
    async createOrg(name) {
      const org: Org = { id: `org_${randomUUID().replace(/-/g, '').slice(0, 16)}`, name, createdAt: new Date().toISOString(), live: false, venues: [] };
      await store.upsert(Tables.orgs, [{ key: org.id, version: Date.now(), body: JSON.stringify(org) }]);
      return org;
    },
    async getOrg(id) {
      const row = await store.get(Tables.orgs, id);
      return row ? OrgBody.parse(JSON.parse(row.body)) : undefined;
    },
    async createKey(orgId, plan, overrides, opts) {
      const cap = opts?.maxActive;
      if (cap === undefined) return mint(orgId, plan, overrides, opts);
      // one capped mint at a time per organisation in this process, so two at once cannot both pass the count
      const turn = (capped.get(orgId) ?? Promise.resolve()).then(async () => {
        const active = (await svc.list(orgId)).filter((k) => !k.revokedAt).length;
        if (active >= cap) throw new ApiError('key_limit', `the organisation holds ${active} active keys and its cap is ${cap}: revoke one to create another`);
        return mint(orgId, plan, overrides, opts);
      });
      const settled = turn.then(
        () => undefined,
        () => undefined,
      );
      capped.set(orgId, settled);
      void settled.then(() => {
        if (capped.get(orgId) === settled) capped.delete(orgId);
      });
      return turn;
    },
    async resolve(plaintext, now) {
      const hit = svc.cached(plaintext, now);
      if (hit !== undefined) return hit ?? undefined;
      if (!isKeyShaped(plaintext)) return undefined;
      return load(plaintext, now);
    },
    cached(plaintext, now) {
      const hit = valid.get(plaintext);
      if (hit) {
        if (hit.expiresAt <= now) return undefined;
        // load() shares a read in flight; its failure leaves the entry to expire
        if (hit.expiresAt - now < refreshAheadMs) load(plaintext, now).catch(() => undefined);
        return hit.record;
      }
      const miss = invalid.get(plaintext);
      return miss && miss.expiresAt > now ? null : undefined;
    },
    async revoke(keyId, now) {
      const rec = await read(keyId);
      if (!rec || rec.revokedAt) return false;
      await write({ ...rec, revokedAt: new Date(now).toISOString() }, now);
      drop(keyId);
      await log?.ensureTopic(Topics.keys);
      await log?.publish(Topics.keys, [{ key: keyId, value: JSON.stringify({ type: 'revoked', keyId }) }]);
      return true;
    },
    async goLive(orgId, now, accepted) {
      const org = await svc.getOrg(orgId);
      if (!org) throw new Error(`unknown organisation ${orgId}`);
      const terms = accepted ? { termsAcceptedAt: new Date(now).toISOString(), termsAcceptedBy: accepted.by } : {};
      await store.upsert(Tables.orgs, [{ key: org.id, version: now, body: JSON.stringify({ ...org, live: true, ...terms }) }]);
      let revoked = 0;
      for (const k of await svc.list(orgId)) if (k.kind === 'test' && !k.revokedAt && (await svc.revoke(k.id, now))) revoked++;
      return { revoked };
    },
    async entitle(orgId, venue, on, now) {
      const org = await svc.getOrg(orgId);
      if (!org) throw new Error(`unknown organisation ${orgId}`);
      const venues = on ? [...new Set([...org.venues, venue])] : org.venues.filter((v) => v !== venue);
      const next = { ...org, venues };
      await store.upsert(Tables.orgs, [{ key: org.id, version: now, body: JSON.stringify(next) }]);
      return next;
    },
    get: read,
    async list(orgId) {
      const rows = await store.list(Tables.apiKeys);
      return rows
        .map((r) => ({ ...ApiKeyBody.parse(JSON.parse(r.body)), id: r.key }))
        .filter((k) => !orgId || k.orgId === orgId);
    },
    forget(keyId) {
      drop(keyId);
    },
  };
  return svc;
}
