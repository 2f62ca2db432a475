import { describe, expect, it } from 'vitest';
import { documentWithoutServer } from '../scripts/document.ts';
import { shortened } from '../scripts/live-calls.ts';
import { validateResponse } from '../test/e2e/openapi.ts';
import type { OpenApiDoc } from '../test/e2e/openapi.ts';
import { recordedExamples } from './openapi.ts';

type Media = { schema: { $ref?: string }; example?: unknown };
type Op = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
};
const operationsOf = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Op })));

const REGENERATE = 'run `npm run openapi:examples` (and commit api/openapi-examples.json)';

describe('the OpenAPI document’s examples: live answers recorded at build time (api/openapi-examples.json)', () => {
  const doc = documentWithoutServer({ recordedExamples: true });

  it('every operation answering 200 has a recorded example that validates against its response schema', () => {
    expect(recordedExamples(), `api/openapi-examples.json is missing or not of its shape: ${REGENERATE}`).toBeDefined();
    const answering = operationsOf(doc).filter(({ op }) => op.responses['200']);
    expect(answering.length).toBeGreaterThan(60);
    for (const { path, method, op } of answering) {
      const example = op.responses['200']?.content?.['application/json']?.example;
      expect(example, `${method} ${path} (${op.operationId}) has no recorded example: ${REGENERATE}`).toBeDefined();
      const errors = validateResponse(doc as unknown as OpenApiDoc, op.responses, example);
      expect(errors, `${op.operationId}: its recorded example no longer matches the response schema: ${REGENERATE}`).toBeUndefined();
    }
  });

  it('the examples are not vacuous: a recorded answer with a required field removed fails its schema', () => {
    const intel = operationsOf(doc).find(({ op }) => op.operationId === 'tokenIntel')?.op as Op;
    const { verdict: _verdict, ...withoutVerdict } = intel.responses['200']?.content?.['application/json']?.example as Record<string, unknown>;
    expect(validateResponse(doc as unknown as OpenApiDoc, intel.responses, withoutVerdict)).toBeDefined();
  });

  it('shows the live request too: a POST its body, a GET its query values', () => {
    const ops = Object.fromEntries(operationsOf(doc).map(({ op }) => [op.operationId, op]));
    const recorded = recordedExamples()!;
    expect(ops.tokenIntel?.requestBody?.content['application/json']?.example).toEqual(recorded.operations.tokenIntel?.request.body);
    expect(ops.tokenIntel?.requestBody?.content['application/json']?.example).toMatchObject({ token: recorded.subjects.token });
    const limit = ops.marketMovers?.parameters?.find((p) => p.name === 'limit');
    expect(limit?.example).toBe(recorded.operations.marketMovers?.request.query?.limit);
  });

  it("a deployment's document names its own token and wallet in the request examples, other subjects as recorded", () => {
    const recorded = recordedExamples()!;
    const token = '0x' + '1a'.repeat(20);
    const wallet = '0x' + '2b'.repeat(20);
    const ops = Object.fromEntries(operationsOf(documentWithoutServer({ recordedExamples: true, examples: { chain: 'sim', token, wallet } })).map(({ op }) => [op.operationId, op]));
    const body = (id: string) => ops[id]?.requestBody?.content['application/json']?.example as Record<string, unknown>;
    expect(body('tokenIntel').token).toBe(token);
    expect(body('traderScore').wallet).toBe(wallet);
    expect(body('copyAgentCreate').leader).toBe(wallet);
    expect((body('tokenCompare').tokens as string[])[0]).toBe(token);
    // a venue account is not the spot wallet the deployment names
    expect(body('perpWallet').wallet).toBe(recorded.operations.perpWallet?.request.body?.wallet);
    // the answers stay as recorded
    expect(ops.tokenIntel?.responses['200']?.content?.['application/json']?.example).toEqual(recorded.operations.tokenIntel?.response);
  });

  it('shortened keeps the first three items of every array, at every depth, and everything else as it is', () => {
    const answer = { n: 1, s: 'x', none: null, list: [1, 2, 3, 4, 5], nested: { rows: [{ xs: [1, 2, 3, 4] }, {}, {}, {}] } };
    expect(shortened(answer)).toEqual({ n: 1, s: 'x', none: null, list: [1, 2, 3], nested: { rows: [{ xs: [1, 2, 3] }, {}, {}] } });
    expect(shortened([])).toEqual([]);
  });
});

describe('the OpenAPI document: the stream, the relay’s authorization and shared error answers', () => {
  const doc = documentWithoutServer({ recordedExamples: false });
  const components = doc.components as { schemas: Record<string, unknown>; responses: Record<string, { headers?: Record<string, unknown> }>; securitySchemes: Record<string, { type: string; in?: string; name?: string }> };

  it('documents GET /stream: its query, the 101 upgrade with the messages as named schemas, and its JSON errors', () => {
    const stream = doc.paths['/stream']?.get as Op & { 'x-units': number; 'x-websocket': Record<string, { $ref: string }> };
    expect(stream.operationId).toBe('stream');
    expect(stream['x-units']).toBe(1);
    expect(stream.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['query:topics', 'query:since', 'query:stream']);
    expect(stream.responses['101']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/StreamServerMessage' });
    expect(stream['x-websocket'].client).toEqual({ $ref: '#/components/schemas/StreamClientMessage' });
    expect(components.schemas.StreamServerMessage).toBeDefined();
    expect(components.schemas.StreamClientMessage).toBeDefined();
    expect(Object.keys(stream.responses)).toEqual(expect.arrayContaining(['400', '401', '426', '429']));
    expect(Object.keys(components.responses.Error426?.headers ?? {})).toContain('Upgrade');
  });

  it("the relay's wallet headers are security schemes required with the key, not parameters every call must spell", () => {
    expect(components.securitySchemes.walletSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Wallet-Signature' });
    const create = doc.paths['/copy/agent/create']?.post as Op;
    expect(create.security).toEqual([
      { bearer: [], walletAddress: [], walletSignature: [], walletTimestamp: [] },
      { apiKey: [], walletAddress: [], walletSignature: [], walletTimestamp: [] },
    ]);
    expect(create.parameters ?? []).toEqual([]);
    expect((doc.paths['/token-intel']?.post as Op).security).toEqual([{ bearer: [] }, { apiKey: [] }]);
  });

  it('every error status refers to one shared answer, which states Retry-After on 429 and 503', () => {
    for (const { op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) expect(response, `${op.operationId} ${status}`).toEqual({ $ref: `#/components/responses/Error${status}` });
      }
    }
    for (const status of ['429', '503']) expect(Object.keys(components.responses[`Error${status}`]?.headers ?? {})).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'RateLimit-Policy', 'RateLimit']));
  });
});
