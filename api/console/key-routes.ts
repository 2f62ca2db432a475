import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import type { Plan } from '../../schemas/keys.ts';
import type { ApiKeyRecord } from '../../infra/keys.ts';
import type { Meter } from '../metering.ts';
import { utcDay } from '../metering.ts';
import { requestBody } from '../plugins/errors.ts';
import type { Store } from '../../infra/store/types.ts';
import { parseInput } from '../validate.ts';
import type { ConsoleContext } from './context.ts';

const requests = {
  keyCreate: z.object({ name: z.string().trim().max(60).optional() }),
  keyRevoke: z.object({ keyId: z.string().regex(/^[0-9a-f]{64}$/, 'must be a key id') }),
};

function keyView(k: ApiKeyRecord, lastUsed: string | null) {
  return {
    keyId: k.id,
    name: k.name ?? null,
    prefix: k.displayPrefix,
    lastFour: k.lastFour ?? null,
    kind: k.kind,
    plan: k.plan,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt ?? null,
    /** the last UTC day the key was billed for a call, within the last 14 days */
    lastUsed,
  };
}

/**
 * per key: the last UTC day it was billed within 14 days. Today is the meter's; the store's days
 * are read newest first and only while a key not yet seen could have been billed that day (it
 * existed and was not revoked yet), so a listing of keys used today or minted today reads none.
 */
async function lastUsedOf(meter: Meter, store: Store, orgKeys: ApiKeyRecord[], now: number): Promise<Map<string, string>> {
  const lastUsed = new Map<string, string>();
  const today = utcDay(now);
  for (const k of orgKeys) if (meter.keyDay(k.id, now).requests > 0) lastUsed.set(k.id, today);
  for (let d = 1; d <= 13; d++) {
    const day = utcDay(now - d * 86_400_000);
    const minted = orgKeys.filter((k) => !lastUsed.has(k.id) && k.createdAt.slice(0, 10) <= day);
    // every key not seen yet was minted after this day: no older day can have billed it
    if (minted.length === 0) break;
    const open = new Set(minted.filter((k) => !k.revokedAt || k.revokedAt.slice(0, 10) >= day).map((k) => k.id));
    if (open.size === 0) continue;
    for (const t of await store.usage(day)) if (open.has(t.keyId)) lastUsed.set(t.keyId, day);
  }
  return lastUsed;
}

/** The organisation's API keys: listed with their last use and the cap, minted (rate limited) and revoked. */
export function keyRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { accounts, clock, csrf, deps } = ctx;
  const capOf = (live: boolean) => (live ? deps.keysPerOrg.live : deps.keysPerOrg.sandbox);

  app.get('/console/api/keys', async function listKeys(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const orgKeys = await deps.keys.list(s.org.id);
    const lastUsed = await lastUsedOf(deps.meter, deps.store, orgKeys, now);
    const keys = orgKeys.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((k) => keyView(k, lastUsed.get(k.id) ?? null));
    const cap = { active: orgKeys.filter((k) => !k.revokedAt).length, max: capOf(s.org.live) };
    return { live: s.org.live, mints: s.org.live ? 'key_live_' : 'key_test_', cap, keys };
  });

  app.post('/console/api/keys/create', { preHandler: csrf }, async function createKey(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    ctx.rates.keyCreate(req.ip, s.member.identity, now);
    const i = parseInput(requests.keyCreate, requestBody(req), 'body');
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    const { plaintext, record } = await deps.keys.createKey(s.org.id, plan, undefined, { maxActive: capOf(s.org.live), ...(i.name ? { name: i.name } : {}) });
    await accounts.audit(s.org.id, ctx.actor(s, req), 'key.created', `${record.displayPrefix}…${record.lastFour ?? ''}`, { plan, kind: record.kind, name: i.name ?? null }, now);
    return { plaintext, key: keyView(record, null) };
  });

  app.post('/console/api/keys/revoke', { preHandler: csrf }, async function revokeKey(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const i = parseInput(requests.keyRevoke, requestBody(req), 'body');
    const k = await deps.keys.get(i.keyId);
    if (!k || k.orgId !== s.org.id) throw new ApiError('not_found', 'no such key in this organisation');
    if (k.revokedAt) throw new ApiError('invalid_state', 'the key is already revoked');
    await deps.keys.revoke(k.id, now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'key.revoked', `${k.displayPrefix}…${k.lastFour ?? ''}`, null, now);
    return { keyId: k.id, revoked: true };
  });
}
