import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../scripts/client-generate.ts';
import { agentApiMessage } from './index.ts';
import { canonicalAgentMessage } from '../api/wallet-auth.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('the generated client (client/)', () => {
  it('the committed types (client/schema.ts) are what the current document generates', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const current = await generateClientTypes();
    expect(committed === current, 'client/schema.ts is not what the document generates: run `npm run client:generate` and commit it').toBe(true);
  });

  it('the client, a typed use of it, and calls its types must refuse compile under the project’s strict settings', () => {
    const config = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) });
    const files = ['client/index.ts', 'client/usage.ts', 'test/fixtures/client-misuse.ts'].map((f) => resolve(ROOT, f));
    const program = ts.createProgram(files, { ...config!.options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
    expect(program.getSourceFiles().map((f) => f.fileName)).toEqual(expect.arrayContaining([...files, resolve(ROOT, 'client/schema.ts')]));
  }, 120_000);

  it('signs the message the server verifies: the same canonical agent-API text', async () => {
    const parts = { partner: 'org_1', method: 'post', path: '/copy/agent/list', query: 'a=1', rawBody: '{"limit":5}', wallet: '0xAbC0000000000000000000000000000000000001', timestamp: 1_700_000_000 };
    expect(await agentApiMessage(parts)).toBe(canonicalAgentMessage(parts));
    expect(await agentApiMessage({ ...parts, rawBody: '' })).toBe(canonicalAgentMessage({ ...parts, rawBody: '' }));
  });
});
