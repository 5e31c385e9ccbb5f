import httpProxy from '@fastify/http-proxy';
import Fastify from 'fastify';
import { Pool } from 'undici';

/**
 * Reference proxy for the gateway-overhead suite: Fastify and @fastify/http-proxy with nothing
 * else (no logger, hooks, session or principal), on the gateway's pool settings. Forwards
 * `/api/health/data` to the upstream's `/api/health`. Env: UPSTREAM, PORT.
 */
const upstream = process.env.UPSTREAM as string;
const app = Fastify({ logger: false });
await app.register(httpProxy, {
  upstream,
  prefix: '/api/health/data',
  rewritePrefix: '/api/health',
  websocket: false,
  undici: new Pool(upstream, { connections: 64, pipelining: 1 }),
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
