import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import type { KeyService } from './keys.ts';

const MARKER = 'sandbox-org';

/**
 * On the first start of a data directory: create a sandbox organisation and key. The plaintext
 * key is returned to be printed this once; only its hash is stored. Later starts get the org id.
 */
export async function ensureSandboxOrg(store: Store, keys: KeyService): Promise<{ orgId: string; plaintext?: string }> {
  const row = await store.get(Tables.meta, MARKER);
  if (row) return { orgId: (JSON.parse(row.body) as { orgId: string }).orgId };
  const org = await keys.createOrg('sandbox');
  const { plaintext } = await keys.createKey(org.id, 'sandbox');
  await store.upsert(Tables.meta, [{ key: MARKER, version: 1, body: JSON.stringify({ orgId: org.id }) }]);
  return { orgId: org.id, plaintext };
}

const OPERATOR_MARKER = 'operator-org';

/**
 * The deployment's own live organisation, created on first use: `intel keys create --plan
 * enterprise` without `--org` mints its keys there (an operator's benchmark or internal key).
 */
export async function ensureOperatorOrg(store: Store, keys: KeyService): Promise<{ orgId: string }> {
  const row = await store.get(Tables.meta, OPERATOR_MARKER);
  if (row) return { orgId: (JSON.parse(row.body) as { orgId: string }).orgId };
  const org = await keys.createOrg('operator');
  await keys.goLive(org.id, Date.now());
  await store.upsert(Tables.meta, [{ key: OPERATOR_MARKER, version: 1, body: JSON.stringify({ orgId: org.id }) }]);
  return { orgId: org.id };
}
