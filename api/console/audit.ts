import { randomBytes } from 'node:crypto';
import { rowOf } from '../../infra/rows.ts';
import type { Store } from '../../infra/store/types.ts';
import { AuditRow } from './rows.ts';
import type { AuditEntry } from './rows.ts';

/** who did a change: a console member, or an API key (`apikey:<key id>`, shown by its prefix) */
export type AuditActor = AuditEntry['actor'];

export type AuditWriter = (orgId: string, actor: AuditActor, ip: string | null, action: string, target: string | null, detail: Record<string, unknown> | null, at: number) => Promise<AuditEntry>;

/** the audit log's actor for a change made through the API with a key */
export const apiKeyActor = (key: { id: string; displayPrefix: string; lastFour?: string }): AuditActor => ({
  memberId: `apikey:${key.id}`,
  identity: `apikey:${key.displayPrefix}…${key.lastFour ?? ''}`,
});

/**
 * Writes the organisation's audit log (the console's audit panel reads it): every change made from
 * the console, and the webhook changes made through the API too.
 */
export function createAuditWriter(store: Store): AuditWriter {
  /** entries written in the same millisecond keep their order (AuditRow) */
  let lastAuditMs = 0;
  let auditSeq = 0;
  return async (orgId, actor, ip, action, target, detail, at) => {
    const entry: AuditEntry = { id: `aud_${randomBytes(8).toString('hex')}`, orgId, at, actor, action, target, detail, ip };
    auditSeq = at === lastAuditMs ? Math.min(auditSeq + 1, 999_999) : 0;
    lastAuditMs = at;
    await store.upsert(AuditRow.table, [rowOf(AuditRow, entry, 1, orgId, at, auditSeq, entry.id)]);
    return entry;
  };
}
