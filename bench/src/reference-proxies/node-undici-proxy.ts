import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';

/**
 * Reference proxy for the gateway-overhead suite: node:http and undici's dispatcher, no framework,
 * the least a Node proxy can do per request. Forwards `/api/health/data` to the upstream's
 * `/api/health`, dropping hop-by-hop headers both ways. Env: UPSTREAM, PORT.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host']);
const pool = new Pool(process.env.UPSTREAM as string, { connections: 64, pipelining: 1 });

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

createServer((request, response) => {
  if (!request.url?.startsWith('/api/health/data')) {
    response.writeHead(404).end();
    return;
  }
  // A write the client cannot take yet pauses the upstream body (onData answers false); the
  // response's drain resumes it, or that connection would wait for good.
  let resume = () => {};
  response.on('drain', () => resume());
  // A client that goes away mid-answer (the load generator at the end of every round) never
  // drains: the upstream request is aborted, or its pooled connection stays paused for good and
  // after a few rounds none is left (the suite's 0 req/s rows of 2026-11-28 and 2026-12-01).
  let abort: (() => void) | undefined;
  response.on('close', () => {
    if (!response.writableFinished) abort?.();
  });
  const handler: Dispatcher.DispatchHandler = {
    onConnect(abortRequest) {
      abort = () => abortRequest(new Error('the client closed the connection'));
    },
    onError(error) {
      if (response.destroyed) return;
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    },
    onHeaders(status, rawHeaders, resumeBody) {
      resume = resumeBody;
      const headers: Record<string, string> = {};
      for (let i = 0; i < rawHeaders.length; i += 2) {
        const name = rawHeaders[i]!.toString().toLowerCase();
        if (!HOP_BY_HOP.has(name)) headers[name] = rawHeaders[i + 1]!.toString();
      }
      response.writeHead(status, headers);
      return true;
    },
    onData(chunk) {
      return response.write(chunk);
    },
    onComplete() {
      response.end();
    },
  };
  pool.dispatch({ method: request.method as Dispatcher.HttpMethod, path: request.url.replace('/api/health/data', '/api/health'), headers: forwardable(request.headers), body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request }, handler);
}).listen(Number(process.env.PORT), '127.0.0.1');
