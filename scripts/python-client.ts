/**
 * `npm run client:python`: generates the Python client (clients/python/intel_client and its
 * pyproject.toml) from the OpenAPI document with openapi-python-client (PyPI, in the virtualenv
 * clients/python/venv.sh makes). A test (test/e2e/python-client.test.ts) fails when the committed
 * client is not what the current document generates.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentWithoutServer } from './document.ts';

export const PYTHON_CLIENT_DIR = fileURLToPath(new URL('../clients/python', import.meta.url));
/** what the generator writes (the README and the tests beside them are written by hand) */
export const GENERATED = ['intel_client', 'pyproject.toml'];

/** the virtualenv with the generator and pytest (made once) */
export function pythonVenv(): string {
  return execFileSync('bash', [join(PYTHON_CLIENT_DIR, 'venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/**
 * The document a Python client is generated from: the HTTP operations. The live stream is a
 * WebSocket no HTTP client calls, and its frames' union is more than the generator names apart.
 */
function httpDocument(): ReturnType<typeof documentWithoutServer> {
  const doc = documentWithoutServer({ recordedExamples: false });
  delete (doc.paths as Record<string, unknown>)['/stream'];
  const schemas = doc.components.schemas as Record<string, unknown>;
  delete schemas.StreamServerMessage;
  delete schemas.StreamClientMessage;
  return doc;
}

/** generates the client into a new directory and answers it; a warning of the generator fails */
export function generatePythonClient(venv: string): string {
  const work = mkdtempSync(join(tmpdir(), 'python-client-'));
  const docFile = join(work, 'openapi.json');
  writeFileSync(docFile, JSON.stringify(httpDocument()));
  const out = join(work, 'out');
  const args = ['generate', '--path', docFile, '--output-path', out, '--config', join(PYTHON_CLIENT_DIR, 'generator.yaml'), '--meta', 'pdm'];
  const log = execFileSync(join(venv, 'bin/openapi-python-client'), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (/Warning|Unable to/i.test(log)) throw new Error(`openapi-python-client warned:\n${log}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = generatePythonClient(pythonVenv());
  for (const name of GENERATED) {
    rmSync(join(PYTHON_CLIENT_DIR, name), { recursive: true, force: true });
    cpSync(join(out, name), join(PYTHON_CLIENT_DIR, name), { recursive: true });
  }
  process.stdout.write(`wrote ${GENERATED.map((n) => join(PYTHON_CLIENT_DIR, n)).join(', ')}\n`);
}
