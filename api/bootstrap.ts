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
