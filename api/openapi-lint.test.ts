import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentWithoutServer } from '../scripts/document.ts';
import { openApi30 } from './openapi.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SPECTRAL = join(ROOT, 'node_modules/.bin/spectral');
type Finding = { code: string; message: string; path: string[]; severity: number };

/** Spectral's `spectral:oas` ruleset (.spectral.yaml) over a document: its errors (severity 0) */
async function spectralErrors(doc: unknown): Promise<Finding[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'spectral-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  // spectral exits non-zero when it finds an error: its JSON report is read either way
  const out = await promisify(execFile)(SPECTRAL, ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '-f', 'json', '--quiet'], { maxBuffer: 64 << 20 }).catch(
    (e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }),
  );
  return (JSON.parse(out.stdout) as Finding[]).filter((f) => f.severity === 0);
}

describe('the OpenAPI document as linters read it (Spectral, spectral:oas)', () => {
  it('the built document, with its recorded examples and links, has no error', async () => {
    const errors = await spectralErrors(documentWithoutServer({ recordedExamples: true }));
    expect(errors.map((e) => `${e.code} ${e.path.join('.')}: ${e.message}`)).toEqual([]);
  }, 120_000);

  it('the lint is not vacuous: a schema with a $ref beside its description is an error', async () => {
    const doc = documentWithoutServer({ recordedExamples: false });
    const schemas = doc.components.schemas as Record<string, unknown>;
    schemas.Broken = { type: 'object', properties: { next: { description: 'd', $ref: '#/components/schemas/Error' } } };
    const codes = (await spectralErrors(doc)).map((e) => e.code);
    expect(codes).toEqual(['no-$ref-siblings']);
  }, 120_000);
});

describe('openApi30: zod’s JSON Schema as OpenAPI 3.0 allows it', () => {
  const ref = { $ref: '#/components/schemas/Band' };
  const nullOnly = { type: 'string', nullable: true, enum: [null] };

  it('a nullable reference becomes the reference or null', () => {
    expect(openApi30({ nullable: true, allOf: [ref] })).toEqual({ anyOf: [ref, nullOnly] });
    expect(openApi30({ nullable: true, description: 'why', anyOf: [ref, { type: 'integer' }] })).toEqual({ description: 'why', anyOf: [ref, { type: 'integer' }, nullOnly] });
  });

  it('a described reference keeps its description beside an allOf, not beside the $ref', () => {
    expect(openApi30({ properties: { next: { description: 'cursor', ...ref } } })).toEqual({ properties: { next: { description: 'cursor', allOf: [ref] } } });
  });

  it('a nullable enum lists null among its values; a typed nullable and a plain reference stay as they are', () => {
    expect(openApi30({ type: 'string', nullable: true, enum: ['a', 'b'] })).toEqual({ type: 'string', nullable: true, enum: ['a', 'b', null] });
    expect(openApi30({ type: 'string', nullable: true })).toEqual({ type: 'string', nullable: true });
    expect(openApi30({ items: [ref] })).toEqual({ items: [ref] });
  });

  it('a property named nullable or $ref inside properties is a field name, not a keyword', () => {
    expect(openApi30({ type: 'object', properties: { nullable: { type: 'boolean' } } })).toEqual({ type: 'object', properties: { nullable: { type: 'boolean' } } });
  });
});
