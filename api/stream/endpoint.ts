import { StreamQuery } from '../../schemas/stream.ts';
import type { CatalogEntry } from '../operations.ts';

/** units one delivered event costs (control messages — hello, subscribed, errors — are free) */
export const STREAM_UNITS_PER_EVENT = 1;
/** the operation id the stream's connections and events are rated and billed under */
export const STREAM_OPERATION = 'stream';

/**
 * `GET /stream` as the catalog, the docs page and the OpenAPI document list it: not an operation
 * (a WebSocket, served by api/stream/plugin.ts), billed per event delivered, not per call.
 */
export const STREAM_ENDPOINT: CatalogEntry = {
  id: STREAM_OPERATION,
  method: 'GET',
  path: '/stream',
  cost: STREAM_UNITS_PER_EVENT,
  group: 'infra',
  summary: 'The live stream (WebSocket): token, board and wallet changes pushed as they are derived, resumable by seq; billed per event delivered',
  returns: `a WebSocket: hello, then token.changed, board.changed and wallet.grade events of the topics subscribed (${STREAM_UNITS_PER_EVENT} unit per event delivered)`,
  request: StreamQuery,
};
