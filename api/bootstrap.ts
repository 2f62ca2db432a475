import type { Store } from '../infra/store/types.ts';
import { OrgMarkerRow, readRowOrThrow, rowOf } from '../infra/rows.ts';
import type { KeyService } from '../infra/keys.ts';

const MARKER = 'sandbox-org' as const;

/**
 * On the first start of a data directory: create a sandbox organisation and key. The plaintext
 * key is returned to be printed this once; only its hash is stored. Later starts get the org id.
 */
export async function ensureSandboxOrg(store: Store, keys: KeyService): Promise<{ orgId: string; plaintext?: string }> {
  const marked = await readRowOrThrow(store, OrgMarkerRow, MARKER);
  if (marked) return marked;
  const org = await keys.createOrg('sandbox');
  const { plaintext } = await keys.createKey(org.id, 'sandbox');
  await store.upsert(OrgMarkerRow.table, [rowOf(OrgMarkerRow, { orgId: org.id }, 1, MARKER)]);
  return { orgId: org.id, plaintext };
}

const OPERATOR_MARKER = 'operator-org' as const;

/**
 * The deployment's own live organisation, created on first use: `intel keys create --plan
 * enterprise` without `--org` mints its keys there (an operator's benchmark or internal key).
 */
export async function ensureOperatorOrg(store: Store, keys: KeyService): Promise<{ orgId: string }> {
  const marked = await readRowOrThrow(store, OrgMarkerRow, OPERATOR_MARKER);
  if (marked) return marked;
  const org = await keys.createOrg('operator');
  await keys.goLive(org.id, Date.now());
  await store.upsert(OrgMarkerRow.table, [rowOf(OrgMarkerRow, { orgId: org.id }, 1, OPERATOR_MARKER)]);
  return { orgId: org.id };
}
