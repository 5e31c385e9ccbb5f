import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@platform/kit';
import type { OpenAPIV3 } from 'openapi-types';
import { afterEach, expect, it } from 'vitest';
import { RemoteApiDocs } from './remote-api-docs';

const emptyDocument: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 'gateway', version: '1' }, paths: {} };
let server: Server | undefined;
let docs: RemoteApiDocs | undefined;

afterEach(async () => {
  docs?.stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

/** An identity service that answers 503 to its first `failures` document requests, then its document. */
async function identityStartingSlowly(failures: number): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((_request, response) => {
    requests += 1;
    if (requests <= failures) return void response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ paths: { '/api/auth/register': { post: {} } } }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests: () => requests };
}

it('asks a service that has not answered yet again within seconds, not at the next refresh', async () => {
  const identity = await identityStartingSlowly(2);
  docs = new RemoteApiDocs({ remotes: new Map([['identity', identity.url]]), principalSecret: 'x'.repeat(32), refreshMs: 600_000, logger: createLogger({ level: 'silent' }) });
  await docs.start();
  expect(Object.keys(docs.extend(emptyDocument).paths)).toEqual([]);
  await expect.poll(() => Object.keys(docs!.extend(emptyDocument).paths), { timeout: 12_000, interval: 100 }).toEqual(['/api/auth/register']);
  expect(identity.requests()).toBe(3);
});

it('asks a service that never answers less and less often, warning once', async () => {
  const identity = await identityStartingSlowly(Number.POSITIVE_INFINITY);
  const warnings: string[] = [];
  const logger = createLogger({ level: 'silent' });
  logger.warn = ((_details: unknown, message: string) => void warnings.push(message)) as typeof logger.warn;
  docs = new RemoteApiDocs({ remotes: new Map([['identity', identity.url]]), principalSecret: 'x'.repeat(32), refreshMs: 600_000, logger });
  await docs.start();
  // Asked at 0 s, 2 s and 6 s (2 s, then 4 s later): three requests within 7 s, not one every 2 s.
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  expect(identity.requests()).toBe(3);
  expect(warnings).toHaveLength(1);
}, 15_000);

it('stops asking once stopped', async () => {
  const identity = await identityStartingSlowly(Number.POSITIVE_INFINITY);
  docs = new RemoteApiDocs({ remotes: new Map([['identity', identity.url]]), principalSecret: 'x'.repeat(32), refreshMs: 600_000, logger: createLogger({ level: 'silent' }) });
  await docs.start();
  docs.stop();
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(identity.requests()).toBe(1);
});
