/**
 * The OpenAPI document without a server: every operation as the embedded default defines it, the
 * live stream, and the recorded examples (api/openapi-examples.json); the `chain` fields name
 * every known chain (a deployment's served document narrows them to the chains it ingests). The
 * client is generated from it without the recorded answers (scripts/client-generate.ts): its
 * types do not change when the examples are recorded again.
 */
import { buildOpenApi, recordedExamples } from '../api/openapi.ts';
import type { OpenApiExamples } from '../api/openapi.ts';
import { createOperations } from '../api/routes/index.ts';
import type { RouteDeps } from '../api/routes/context.ts';
import { loadConfig } from '../infra/config.ts';

/** the base URL `npm start` listens on by default */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

export function documentWithoutServer(opts: { recordedExamples: boolean; examples?: OpenApiExamples }): ReturnType<typeof buildOpenApi> {
  // the operations' definitions only: no handler runs, so they are given no replica, store or services
  const none = {} as never;
  const deps: RouteDeps = { replica: none, store: none, writer: none, meter: none, keys: none, config: loadConfig({}) };
  const operations = createOperations(deps, { trackRecords: none });
  return buildOpenApi(operations, DEFAULT_PUBLIC_URL, { recorded: opts.recordedExamples ? recordedExamples() : undefined, examples: opts.examples, stream: true });
}
