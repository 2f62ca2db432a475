import * as responseValidatorModule from 'openapi-response-validator';

/** The published document, as the e2e suites read it. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; 'x-units': number }>>;
  components: Record<string, unknown>;
}

type ResponseValidator = new (args: { responses: unknown; components: unknown }) => { validateResponse(status: string, body: unknown): unknown };

// a CommonJS module whose default export is the class (unwrapped differently by different loaders)
const ResponseValidatorClass = ((m: { default: unknown }) =>
  ((m.default as { default?: unknown }).default ?? m.default) as ResponseValidator)(responseValidatorModule as { default: unknown });

/**
 * OpenAPI 3.0's boolean `exclusiveMinimum` / `exclusiveMaximum` (beside `minimum` / `maximum`)
 * as the numbers the validator's JSON Schema (draft 7) reads; everything else as it is.
 */
function draft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft7);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' ? v : draft7(v);
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}
const draft7Components = new WeakMap<object, unknown>();

/** Errors of a 200 body against an operation's documented response, or undefined when it conforms. */
export function validateResponse(doc: OpenApiDoc, responses: Record<string, unknown>, body: unknown): unknown {
  if (!draft7Components.has(doc.components)) draft7Components.set(doc.components, draft7(doc.components));
  return new ResponseValidatorClass({ responses: draft7(responses), components: draft7Components.get(doc.components) }).validateResponse('200', body);
}
