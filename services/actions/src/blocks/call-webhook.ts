import { inHttpClientSpan } from '@platform/telemetry';
import { fetch } from 'undici';
import { z } from 'zod';
import { runErrorCodes } from '../errors';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../domain/webhook-signature';
import { BlockError, eventData, settings, type BlockDefinition, type BlockRunContext } from './block';
import { AddressRefusedError } from './guarded-http';

const MAX_RESPONSE_BYTES = 64 * 1024;

const configuration = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2_000),
  timeoutMs: z.number().int().min(100).max(30_000).optional(),
  /** Key for the signature header; ACTIONS_WEBHOOK_SECRET when absent. */
  secret: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
});

/**
 * POSTs JSON (the `body` input, else `{ triggerName, data }`) with a timeout, signed with an HMAC
 * header, through the guarded connection pool: private, loopback and link-local addresses are
 * refused unless ACTIONS_WEBHOOK_ALLOWED_NETWORKS allows them. Redirects are not followed (a
 * redirect could point anywhere). A status outside 2xx fails the block. Inside a trace the call is
 * a client span and sends the W3C `traceparent` (docs/observability.md, Traces).
 */
export const callWebhookBlock: BlockDefinition<z.infer<typeof configuration>> = {
  name: 'call-webhook',
  description: 'POSTs JSON to a URL with a timeout and an HMAC-SHA256 signature header; private and loopback addresses are refused.',
  sockets: [
    { name: 'body', type: 'object', direction: 'IN', description: 'The JSON to send; the trigger payload when unconnected' },
    { name: 'status', type: 'number', direction: 'OUT' },
    { name: 'response', type: 'object', direction: 'OUT', description: 'The JSON answer, or { text } for other content' },
  ],
  configuration,
  requiredInputs: [],
  async run(config, context) {
    const { services } = context;
    const merged = settings(config, context.inputs);
    const url = new URL(config.url);
    const refusedLiteral = services.policy.urlRefusal(url);
    if (refusedLiteral) throw new BlockError(runErrorCodes.webhookRefused, `Refused to call ${url.host}: ${refusedLiteral} (SSRF guard)`);
    const secret = config.secret ?? services.config.webhookSecret;
    if (!secret) throw new BlockError('ACTIONS_WEBHOOK_NO_SECRET', 'No signing secret: set configuration.secret or ACTIONS_WEBHOOK_SECRET');

    const body = JSON.stringify(merged.body !== undefined ? merged.body : payload(context));
    const timestamp = services.clock();
    const timeoutMs = config.timeoutMs ?? services.config.webhookTimeoutMs;
    const started = Date.now();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'platform-actions',
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
    };
    try {
      // The call's span carries the answer's reading too; its traceparent lets a traced receiver join the trace.
      const answer = await inHttpClientSpan(context.traceContext, 'POST', url, headers, async () => {
        const response = await fetch(url, { method: 'POST', body, redirect: 'manual', dispatcher: services.http, signal: AbortSignal.timeout(timeoutMs), headers });
        return { status: response.status, text: await readCapped(response.body, MAX_RESPONSE_BYTES), contentType: response.headers.get('content-type') };
      });
      const summary = { url: `${url.origin}${url.pathname}`, status: answer.status, durationMs: Date.now() - started };
      if (answer.status < 200 || answer.status > 299) {
        throw new BlockError('ACTIONS_WEBHOOK_FAILED', `${summary.url} answered ${answer.status}${answer.status < 400 ? ' (redirects are not followed)' : ''}`);
      }
      return { outputs: { status: answer.status, response: parseAnswer(answer.text, answer.contentType) }, summary };
    } catch (error) {
      throw webhookError(error, url, timeoutMs);
    }
  },
};

function payload(context: BlockRunContext) {
  return { triggerName: context.triggerName, data: eventData(context) };
}

function parseAnswer(text: string, contentType: string | null): unknown {
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return { text };
    }
  }
  return { text };
}

/** Reads at most `limit` bytes of an answer; the rest is dropped so a huge answer costs nothing. */
async function readCapped(body: AsyncIterable<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function webhookError(error: unknown, url: URL, timeoutMs: number): Error {
  if (error instanceof BlockError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AddressRefusedError) return new BlockError(runErrorCodes.webhookRefused, `Refused to call ${url.host}: ${cause.message} (SSRF guard)`);
  if ((error as Error).name === 'TimeoutError' || (cause as Error | undefined)?.name === 'TimeoutError') {
    return new BlockError(runErrorCodes.webhookTimeout, `${url.host} did not answer within ${timeoutMs} ms`);
  }
  const reason = cause instanceof Error ? cause.message : (error as Error).message;
  return new BlockError('ACTIONS_WEBHOOK_FAILED', `Calling ${url.host} failed: ${reason}`);
}
