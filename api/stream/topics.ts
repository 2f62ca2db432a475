import { ChainSlugs } from '../../schemas/chains.ts';
import { ApiError } from '../../schemas/errors.ts';
import { StreamTopicKinds } from '../../schemas/stream.ts';
import { ADDRESS_MESSAGE, isApiAddress } from '../routes/common.ts';

/**
 * The stream's topic grammar, shared by the WebSocket stream (api/stream/plugin.ts) and the
 * webhook endpoints that subscribe to the same topics (api/routes/webhooks.ts).
 */

/** a topic string checked and normalised (addresses lowercase), or the error that refuses it */
export function parseTopic(topic: string, chains: readonly string[]): { topic: string } | ApiError {
  const parts = topic.split(':');
  const kind = parts[0] as (typeof StreamTopicKinds)[number];
  const shape = kind === 'board' ? 2 : 3;
  if (!StreamTopicKinds.includes(kind) || parts.length !== shape) {
    return new ApiError('invalid_param', `'${topic}' is not a topic: subscribe to token:<chain>:<address>, board:<chain> or wallet:<chain>:<address>`);
  }
  const chain = parts[1] as string;
  if (!(ChainSlugs as readonly string[]).includes(chain)) return new ApiError('invalid_chain', `'${chain}' is not a chain slug; known: ${ChainSlugs.join(', ')}`);
  if (!chains.includes(chain)) return new ApiError('invalid_chain', `chain '${chain}' is not ingested by this deployment; ingested: ${chains.join(', ')}`);
  if (shape === 2) return { topic: `board:${chain}` };
  const addr = parts[2] as string;
  if (!isApiAddress(addr)) return new ApiError('invalid_address', `'${addr}' ${ADDRESS_MESSAGE}`);
  return { topic: `${kind}:${chain}:${addr.toLowerCase()}` };
}

/**
 * A list of topics checked and normalised, once each in their first order; throws the first
 * refusal (parseTopic's codes, the detail naming the field) or, past `max` distinct topics, invalid_param (`per` names what
 * holds them: "connection", "endpoint").
 */
export function checkTopics(topics: readonly string[], chains: readonly string[], max: number, per: string): string[] {
  const out = new Set<string>();
  for (const t of topics) {
    const r = parseTopic(t, chains);
    if (r instanceof ApiError) throw new ApiError(r.code, `'topics': ${r.detail}`);
    out.add(r.topic);
  }
  if (out.size > max) throw new ApiError('invalid_param', `'topics': at most ${max} topics per ${per}`);
  return [...out];
}
