import { z } from 'zod';
import { ApiError, ErrorCodes } from '../../schemas/errors.ts';
import { TokenIntelResponse, TokenRiskResponse, TokenSignalResponse } from '../../schemas/token.ts';
import type { AnyOperation, CallContext } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { AddressParam, ChainParam } from './common.ts';
import { TokenIntelRequest } from './token.ts';

/** at most this many tokens a batch call (DexScreener takes 30 a call; a watchlist is about 100) */
export const BATCH_MAX = 100;

const Tokens = z
  .array(z.string({ error: 'must be an array of addresses' }).max(100, { error: 'must be an address' }), { error: 'must be an array of addresses' })
  .min(1, { error: 'needs at least 1 address' })
  .max(BATCH_MAX, { error: `at most ${BATCH_MAX} addresses` })
  .meta({ description: `1..${BATCH_MAX} token addresses of one chain; each is answered in its place, a malformed one with its own invalid_address error` });

const ItemError = z
  .object({
    token: z.string().meta({ description: 'the address as sent' }),
    error: z.enum(ErrorCodes),
    detail: z.string(),
  })
  .meta({ description: 'a token that could not be answered (invalid_address, not_a_token, ...): not billed' });

const batchResponse = (item: z.ZodObject) =>
  z.looseObject({
    chain: z.string(),
    count: z.number().int().meta({ description: 'how many tokens were asked (results has one entry each, in order)' }),
    answered: z.number().int().meta({ description: 'how many were answered with a result (the units billed are cost × answered)' }),
    results: z.array(z.union([item.extend({ token: z.string().meta({ description: 'token address, lowercase' }) }), ItemError])),
  });

export const BatchTokenIntelResponse = batchResponse(TokenIntelResponse);
export const BatchTokenRiskResponse = batchResponse(TokenRiskResponse);
export const BatchTokenSignalResponse = batchResponse(TokenSignalResponse);

/** the tokens a raw body asks for, as the limits plugin holds units for them (a body the schema refuses: one) */
function itemsAsked(body: unknown): number {
  const tokens = (body as { tokens?: unknown } | null)?.tokens;
  return Array.isArray(tokens) ? Math.min(Math.max(tokens.length, 1), BATCH_MAX) : 1;
}

type Item = Record<string, unknown> & { token: string };

/**
 * Batch reads: the token operations a watchlist needs, for up to 100 tokens of one
 * chain in one call. Each token is answered by the single operation's own handler (the same
 * snapshot, the same answer, its served value recorded as the single call records it), in the
 * order asked; a token that cannot be answered gets an error object in its place. Billed per
 * token answered (the single operation's units each); an error in a slot is not billed.
 */
export function createBatchOperations(single: AnyOperation[], defaultChain: string): AnyOperation[] {
  const byId = new Map(single.map((o) => [o.id, o]));
  const batch = (spec: { id: string; of: string; path: string; request: z.ZodObject; response: z.ZodType; what: string }) => {
    const of = byId.get(spec.of);
    if (!of) throw new Error(`batch ${spec.id}: no operation ${spec.of}`);
    return defineOperation({
      id: spec.id,
      method: 'POST',
      path: spec.path,
      cost: of.cost,
      group: 'token',
      summary: `${spec.what} of up to ${BATCH_MAX} tokens of one chain in one call, one result or error per token in order (${of.cost} unit${of.cost === 1 ? '' : 's'} per token answered)`,
      returns: `chain, count, answered, results[] (each ${of.id}'s answer with its token, or {token, error, detail})`,
      request: spec.request,
      response: spec.response,
      perItem: { items: itemsAsked, billed: (out) => (out as { answered: number }).answered },
      handler: async (input, ctx: CallContext) => {
        const i = input as { chain?: string; tokens: string[] } & Record<string, unknown>;
        const chain = i.chain ?? defaultChain;
        const { tokens, ...params } = i;
        // the single operation as registered now (track records wrap its handler at boot)
        const op = byId.get(spec.of) as AnyOperation;
        const results: Item[] = [];
        for (const sent of tokens) {
          const address = AddressParam.safeParse(sent);
          if (!address.success) {
            results.push({ token: sent, error: 'invalid_address', detail: `'${sent}' must be a 0x-prefixed 20-byte hex address (mixed case must pass the EIP-55 checksum)` });
            continue;
          }
          const token = address.data;
          try {
            const out = (await op.handler({ ...params, chain, token }, ctx)) as Record<string, unknown>;
            results.push({ token, ...out });
          } catch (e) {
            if (!(e instanceof ApiError) || e.status >= 500) throw e;
            results.push({ token, error: e.code, detail: e.detail });
          }
        }
        const answered = results.filter((r) => !('error' in r)).length;
        return { chain, count: results.length, answered, results };
      },
    });
  };
  const TokensBody = z.object({ chain: ChainParam, tokens: Tokens });
  return [
    batch({
      id: 'batchTokenIntel',
      of: 'tokenIntel',
      path: '/tokens/intel',
      request: TokensBody.extend({ sizeUsd: TokenIntelRequest.shape.sizeUsd }),
      response: BatchTokenIntelResponse,
      what: 'Verdict, risk, momentum, entry and activity',
    }),
    batch({ id: 'batchTokenRisk', of: 'tokenRisk', path: '/tokens/risk', request: TokensBody, response: BatchTokenRiskResponse, what: 'Risk band, score, signals and flags' }),
    batch({ id: 'batchTokenSignal', of: 'tokenSignal', path: '/tokens/signal', request: TokensBody, response: BatchTokenSignalResponse, what: 'Signal, conviction and rationale' }),
  ];
}
