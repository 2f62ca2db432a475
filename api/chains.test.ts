/**
 * Chains (docs/architecture.md "Decisions"): the deployment serves the chains it ingests; a known slug it
 * does not ingest answers 400 invalid_chain saying so, unbilled, whatever the operation.
 */
import { describe, expect, it } from 'vitest';
import { ingestedChains, loadConfig } from '../infra/config.ts';
import { appPerTest } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';

describe('chains this deployment ingests', () => {
  it('are derived from the configuration in one place: the default chain, sim when the simulator runs, every chain with an RPC URL', () => {
    expect(ingestedChains(loadConfig({}))).toEqual(['sim']);
    expect(ingestedChains(loadConfig({ SIM_ENABLED: 'false', DEFAULT_CHAIN: 'sim' }))).toEqual(['sim']);
    expect(ingestedChains(loadConfig({ SIM_ENABLED: 'false', DEFAULT_CHAIN: 'devnet', RPC_URL_DEVNET: 'http://127.0.0.1:8545' }))).toEqual(['devnet']);
    expect(ingestedChains(loadConfig({ RPC_URL_BASE: 'https://base.example', RPC_URL_ETHEREUM: 'https://eth.example' }))).toEqual(['ethereum', 'base', 'sim']);
  });

  describe('through the app', () => {
    const boot = appPerTest();
    let t: TestApp;
    const post = (key: string, body: unknown) =>
      t.app.inject({ method: 'POST', url: '/v1/probe', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

    it('a known chain not ingested answers 400 invalid_chain saying so, unbilled; an ingested one and the default answer', async () => {
      t = await boot({ chains: ['sim', 'devnet'] });
      const key = await t.newKey();
      const base = await post(key, { chain: 'base' });
      expect(base.statusCode).toBe(400);
      expect(base.json().error).toBe('invalid_chain');
      expect(base.json().detail).toMatch(/base.*not ingested.*sim, devnet/);
      expect(base.headers['x-usage-units']).toBeUndefined();
      // the chain is named before any other problem of the input
      expect((await post(key, { n: 'x', chain: 'base' })).json().error).toBe('invalid_chain');
      expect((await post(key, { chain: 'mars' })).json().error).toBe('invalid_chain');
      expect((await post(key, { chain: 'devnet' })).json()).toEqual({ ok: true, chain: 'devnet' });
      expect((await post(key, {})).statusCode).toBe(200);
      const id = (await t.keys.resolve(key, Date.now()))!.id;
      expect(t.meter.keyDay(id, Date.now()).units).toBe(2);
    });

    it('the catalog lists the chains served, and the OpenAPI document names only them', async () => {
      t = await boot({ chains: ['sim', 'devnet'] });
      const catalog = (await t.app.inject({ url: '/v1/' })).json();
      expect(catalog.chains).toEqual([{ slug: 'sim' }, { slug: 'devnet' }]);
      const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
      const body = doc.paths['/probe'].post.requestBody.content['application/json'].schema;
      expect(body.properties.chain.enum).toEqual(['sim', 'devnet']);
      expect(body.required ?? []).not.toContain('chain');
    });
  });
});
