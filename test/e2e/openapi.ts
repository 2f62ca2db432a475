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

/** Errors of a 200 body against an operation's documented response, or undefined when it conforms. */
export function validateResponse(doc: OpenApiDoc, responses: Record<string, unknown>, body: unknown): unknown {
  return new ResponseValidatorClass({ responses, components: doc.components }).validateResponse('200', body);
}
