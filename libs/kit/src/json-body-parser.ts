import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';
import { findJsonLimitViolation, MAX_JSON_DEPTH, pathOfNonFiniteNumber } from './json-limits';

function refusal(code: string, field: string, message: string): AppError {
  return new AppError(400, code, `Invalid ${field}: ${message}`, { issues: [{ field, message }] });
}

/**
 * Replaces Fastify's JSON body parser with one that first checks the text's limits
 * (json-limits.ts) and then parses as before (prototype and constructor poisoning refused).
 * Registered by the app factory, so every service is covered whether it runs behind the gateway
 * or listens alone.
 */
export function registerLimitedJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const violation = findJsonLimitViolation(text);
    if (violation === 'too-deep') {
      done(refusal('JSON_TOO_DEEP', 'body', `objects and arrays may nest at most ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    if (violation === null) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const path = pathOfNonFiniteNumber(value);
      done(refusal('JSON_NUMBER_OUT_OF_RANGE', path ? `body.${path}` : 'body', 'number is too large to be stored'), undefined);
    });
  });
}
