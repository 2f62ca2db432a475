/**
 * What the console adds for fair use and webhooks (HTTP, signed in with a wallet): the usage panel
 * states every daily limit the organisation's keys run under and what is left, and every change to
 * a webhook endpoint made from the console is in the audit log, as one made through the API is.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { consoleAppPerTest } from '../../test/console-client.ts';

const { boot } = consoleAppPerTest();

describe('partner console: the limits on the usage panel and webhook changes in the audit log', () => {
  it('the usage panel shows the organisation quota, the sandbox share and the budget with what is left', async () => {
    const c = await boot();
    const b = c.browser();
    await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    const key = (await b.call('POST', '/console/api/keys/create', { name: 'backend' })).json.plaintext as string;
    expect((await fetch(`${c.url}/v1/probe`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    const usage = await b.call('GET', '/console/api/usage');
    expect(usage.status).toBe(200);
    expect(usage.json.limits).toEqual({
      dailyUnitsPerKey: 10_000,
      org: { dailyUnits: 10_000, usedUnits: 1, remainingUnits: 9_999 },
      sandbox: { share: 0.2, dailyUnits: 200_000, usedUnits: 1, remainingUnits: 199_999 },
      budget: { dailyUnits: 1_000_000, usedUnits: 1, remainingUnits: 999_999 },
    });
  });

  it('an endpoint created, tested and deleted from the console leaves an entry each, by the member', async () => {
    const c = await boot();
    const b = c.browser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    await b.signInWithWallet(wallet);
    const created = await b.call('POST', '/console/api/webhooks/create', { url: 'http://127.0.0.1:9/hooks' });
    expect(created.status).toBe(200);
    const endpointId = created.json.endpointId as string;
    expect((await b.call('POST', '/console/api/webhooks/test', { endpointId })).status).toBe(200);
    expect((await b.call('POST', '/console/api/webhooks/delete', { endpointId })).status).toBe(200);
    // a refused URL changes nothing and logs nothing
    expect((await b.call('POST', '/console/api/webhooks/create', { url: 'http://169.254.169.254/latest' })).status).toBe(400);
    const audit = await b.call('GET', '/console/api/audit');
    const entries = (audit.json.entries as { action: string; target: string; actor: { identity: string } }[]).filter((e) => e.action.startsWith('webhook.'));
    expect(entries.map((e) => [e.action, e.target, e.actor.identity])).toEqual([
      ['webhook.deleted', endpointId, `wallet:${wallet.address.toLowerCase()}`],
      ['webhook.test_sent', endpointId, `wallet:${wallet.address.toLowerCase()}`],
      ['webhook.created', endpointId, `wallet:${wallet.address.toLowerCase()}`],
    ]);
  });
});
