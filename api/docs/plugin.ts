import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The reference's own policy: Swagger UI's scripts and stylesheet from 'self' (its components set
 * styles through the DOM, which the policy does not govern), the document and the try-it calls to
 * 'self', its inline SVG icons as data: images; no inline or eval'd script, no framing, no form posts.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** the package's files (the module has no types: its package.json locates them) */
const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const page = readFileSync(resolve(import.meta.dirname, 'index.html'), 'utf8');
const init = readFileSync(resolve(import.meta.dirname, 'init.js'), 'utf8');

/**
 * The interactive reference under every base (`/v1/docs`): Swagger UI served from the swagger-ui-dist
 * package's files (no CDN), reading the base's openapi.json; the page's paths are relative to the base.
 */
export async function docsPlugin(app: FastifyInstance, bases: readonly string[]): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_req, reply, payload) => {
      void reply.header('content-security-policy', DOCS_CSP);
      return payload;
    });
    await scope.register(fastifyStatic, { root: assets, serve: false });
    for (const base of bases) {
      scope.get(`${base}/docs`, (_req, reply) => reply.type('text/html; charset=utf-8').send(page));
      scope.get(`${base}/docs/assets/init.js`, (_req, reply) => reply.type('text/javascript; charset=utf-8').send(init));
      for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) scope.get(`${base}/docs/assets/${file}`, (_req, reply) => reply.sendFile(file));
    }
  });
}
