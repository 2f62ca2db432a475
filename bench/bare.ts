/**
 * Bench-only child: a bare fastify (no logger, no plugins) answering, on the same method and path,
 * exactly the bytes and content-type the service answered once: the floor our overhead is
 * measured against. Prints `listening PORT`.
 *
 *   node <bench/bare.ts as plain JavaScript, bench/lib.ts plainScript> '<json [{method, path, contentType, file}]>'
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

interface Route {
  method: 'GET' | 'POST';
  path: string;
  contentType: string;
  file: string;
}

const routes = JSON.parse(process.argv[2] ?? '[]') as Route[];
const app = Fastify();
for (const r of routes) {
  const bytes = readFileSync(r.file);
  app.route({ method: r.method, url: r.path, handler: async (_req, reply) => reply.type(r.contentType).send(bytes) });
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
