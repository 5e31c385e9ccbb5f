import type { ErrorBody } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import { dataError } from '../errors';
import { AiDisabled } from './gate';
import { ProviderFailure } from './provider/port';

/**
 * Error rendering of the AI routes' scope. The gate's 403 has the spec's bare `{error}` body, and
 * provider failures are 502 or 504 whose message must reach the caller (the shared handler hides
 * 5xx messages); everything else goes on to the shared handler.
 */
export function renderAiErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((error, request, reply) => {
    if (error instanceof AiDisabled) return reply.code(403).send({ error: error.message });
    if (error instanceof ProviderFailure) {
      const mapped = error.kind === 'timeout' ? dataError('AI_PROVIDER_TIMEOUT', { message: error.message }) : dataError('AI_PROVIDER_ERROR', { message: error.message });
      request.log.warn({ kind: error.kind, providerStatus: error.status }, 'AI provider call failed');
      return reply.code(mapped.statusCode).send({ error: mapped.message, code: mapped.code } satisfies ErrorBody);
    }
    throw error;
  });
}
