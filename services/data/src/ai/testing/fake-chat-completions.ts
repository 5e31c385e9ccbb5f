import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with the next request. */
export type FakeAnswer =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }
  | { status: number; body: unknown }
  | { delayMs: number; content: string }
  | { raw: string }
  | { hangUp: true };

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeChatCompletions {
  /** Base URL to give as AI_BASE_URL (`http://127.0.0.1:{port}/v1`). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Queues answers for the next requests; afterwards each request gets `{content: 'fake answer'}`. */
  answerWith(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/**
 * A chat-completions server on loopback for tests: a real HTTP server speaking the protocol
 * (`POST /v1/chat/completions`), scripted per request, recording what it received.
 */
export async function startFakeChatCompletions(): Promise<FakeChatCompletions> {
  const requests: ReceivedRequest[] = [];
  const queue: FakeAnswer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      requests.push({ path: request.url ?? '', headers: request.headers, body: text ? JSON.parse(text) : undefined });
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const answer = queue.shift() ?? { content: 'fake answer' };
      const completion = (content: string, usage = DEFAULT_USAGE) =>
        JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', model: 'fake', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage });
      if ('hangUp' in answer) return void request.socket.destroy();
      if ('raw' in answer) return void response.writeHead(200, { 'content-type': 'application/json' }).end(answer.raw);
      if ('status' in answer) return void response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      if ('delayMs' in answer) {
        const timer = setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(completion(answer.content)), answer.delayMs);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(completion(answer.content, answer.usage));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answerWith: (...answers) => void queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
