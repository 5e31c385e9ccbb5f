import { setTimeout as sleep } from 'node:timers/promises';
import { inHttpClientSpan, urlSecretsRedaction } from '@platform/telemetry';
import { fetch } from 'undici';
import { z } from 'zod';
import { runErrorCodes } from '../errors';
import { PROJECT_HEADER, projectWebhookKey, SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../domain/webhook-signature';
import { BlockError, eventData, runTimeBudgetError, settings, type BlockDefinition, type BlockRunContext } from './block';
import { AddressRefusedError } from './guarded-http';
import { retryAfterMs } from './retry-after';

const MAX_RESPONSE_BYTES = 64 * 1024;
/** Attempts after the first when none is configured. */
const DEFAULT_RETRIES = 2;
/** The longest wait between attempts, whatever a receiver's Retry-After asks. */
const MAX_RETRY_WAIT_MS = 60_000;
/** Names the delivery: the same on every attempt, so a receiver that got an earlier one can tell. */
export const DELIVERY_HEADER = 'x-platform-delivery';
export const ATTEMPT_HEADER = 'x-platform-attempt';

const configuration = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2_000),
  timeoutMs: z.number().int().min(100).max(30_000).optional(),
  /** Key for the signature header; the project's key (derived from ACTIONS_WEBHOOK_SECRET) when absent. */
  secret: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
  retries: z.number().int().min(0).max(3).optional().describe('Attempts after a failed one that may pass: no answer, a timeout, 408, 429 or 5xx (default 2)'),
});

/** One attempt's outcome: the answer, or why it failed and whether another attempt may pass. */
type Attempt = { ok: true; status: number; text: string; contentType: string | null } | { ok: false; error: BlockError; retryable: boolean; retryAfterMs?: number };

/**
 * POSTs JSON (the `body` input, else `{ triggerName, data }`) with a timeout, signed with an HMAC
 * header over the timestamp, the project id and the body (domain/webhook-signature.ts), through the guarded connection pool: private, loopback and link-local addresses are
 * refused unless ACTIONS_WEBHOOK_ALLOWED_NETWORKS allows them. Redirects are not followed (a
 * redirect could point anywhere). A status outside 2xx fails the block. A failure that may pass (no
 * answer, a timeout, 408, 429, 5xx) is tried again `retries` times, after ACTIONS_WEBHOOK_RETRY_DELAY_MS
 * and then four times longer each (or the receiver's Retry-After, up to a minute); every attempt
 * names the same delivery (`x-platform-delivery`) and is signed anew. Inside a trace each attempt
 * is a client span and sends the W3C `traceparent` (docs/observability.md, Traces).
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
    // Never the global secret itself: any user can choose what a delivery's body holds (another
    // block's answer), so a platform-wide key would sign their content for every tenant's receiver.
    const secret = config.secret ?? (services.config.webhookSecret ? projectWebhookKey(services.config.webhookSecret, context.projectId) : undefined);
    if (!secret) throw new BlockError('ACTIONS_WEBHOOK_NO_SECRET', 'No signing secret: set configuration.secret or ACTIONS_WEBHOOK_SECRET');

    const body = JSON.stringify(merged.body !== undefined ? merged.body : payload(context));
    const timeoutMs = config.timeoutMs ?? services.config.webhookTimeoutMs;
    const retries = config.retries ?? DEFAULT_RETRIES;
    const started = Date.now();
    const shownUrl = `${url.origin}${url.pathname}`;
    for (let attempt = 1; ; attempt += 1) {
      const timestamp = services.clock();
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'platform-actions',
        [TIMESTAMP_HEADER]: String(timestamp),
        [PROJECT_HEADER]: context.projectId,
        [SIGNATURE_HEADER]: webhookSignature(secret, context.projectId, timestamp, body),
        [DELIVERY_HEADER]: `${context.runId}.${context.blockId}`,
        [ATTEMPT_HEADER]: String(attempt),
      };
      const outcome = await attemptCall(context, url, body, headers, timeoutMs);
      if (outcome.ok) {
        const summary = { url: shownUrl, status: outcome.status, durationMs: Date.now() - started, attempts: attempt };
        return { outputs: { status: outcome.status, response: parseAnswer(outcome.text, outcome.contentType) }, summary };
      }
      if (!outcome.retryable || attempt > retries) {
        if (attempt === 1) throw outcome.error;
        throw new BlockError(outcome.error.code, `${outcome.error.message} (attempt ${attempt} of ${retries + 1})`);
      }
      const backoffMs = services.config.webhookRetryDelayMs * 4 ** (attempt - 1);
      await sleep(Math.min(Math.max(backoffMs, outcome.retryAfterMs ?? 0), MAX_RETRY_WAIT_MS), undefined, { signal: context.timeBudget }).catch(() => {
        throw runTimeBudgetError(services.config.runTimeBudgetMs);
      });
    }
  },
};

/** One POST: its answer, or its failure and whether another attempt may pass. */
async function attemptCall(context: BlockRunContext, url: URL, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Attempt> {
  const shownUrl = `${url.origin}${url.pathname}`;
  try {
    // The call's span carries the answer's reading too; its traceparent lets a traced receiver join the trace.
    const answer = await inHttpClientSpan(context.traceContext, 'POST', url, headers, async () => {
      const response = await fetch(url, { method: 'POST', body, redirect: 'manual', dispatcher: context.services.http, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), context.timeBudget]), headers });
      return { status: response.status, text: await readCapped(response.body, MAX_RESPONSE_BYTES), contentType: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after') };
    });
    if (answer.status >= 200 && answer.status <= 299) return { ok: true, ...answer };
    const error = new BlockError('ACTIONS_WEBHOOK_FAILED', `${shownUrl} answered ${answer.status}${answer.status < 400 ? ' (redirects are not followed)' : ''}`);
    const wait = retryAfterMs(answer.retryAfter, context.services.clock());
    return { ok: false, error, retryable: answer.status === 408 || answer.status === 429 || answer.status >= 500, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  } catch (failure) {
    if (context.timeBudget.aborted) return { ok: false, error: runTimeBudgetError(context.services.config.runTimeBudgetMs), retryable: false };
    const error = webhookError(failure, url, timeoutMs);
    // A refused address stays refused; no answer or a timeout may pass.
    return { ok: false, error, retryable: error.code !== runErrorCodes.webhookRefused };
  }
}

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

function webhookError(error: unknown, url: URL, timeoutMs: number): BlockError {
  if (error instanceof BlockError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AddressRefusedError) return new BlockError(runErrorCodes.webhookRefused, `Refused to call ${url.host}: ${cause.message} (SSRF guard)`);
  if ((error as Error).name === 'TimeoutError' || (cause as Error | undefined)?.name === 'TimeoutError') {
    return new BlockError(runErrorCodes.webhookTimeout, `${url.host} did not answer within ${timeoutMs} ms`);
  }
  const reason = cause instanceof Error ? cause.message : (error as Error).message;
  // The reason may quote the URL whole (undici refuses one with a user name or password in it): the
  // run's error and the block span's exception event show it without its credentials or query.
  return new BlockError('ACTIONS_WEBHOOK_FAILED', `Calling ${url.host} failed: ${urlSecretsRedaction(url)(reason)}`);
}
