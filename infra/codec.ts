import type { z } from 'zod';

/**
 * How a record or row body travels as text: encoded once, decoded in one place through its zod
 * schema, so nothing at a boundary trusts `JSON.parse(...) as T`.
 */
export interface Codec<T> {
  encode(value: T): string;
  /** the value, or undefined when the text is not JSON or does not match the schema */
  decode(text: string): T | undefined;
}

export function jsonCodec<T>(schema: z.ZodType<T>): Codec<T> {
  return {
    encode: (value) => JSON.stringify(value),
    decode(text) {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        return undefined;
      }
      const r = schema.safeParse(raw);
      return r.success ? r.data : undefined;
    },
  };
}
