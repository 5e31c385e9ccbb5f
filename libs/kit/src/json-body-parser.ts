import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { AppError } from './errors';
import { findJsonLimitViolation, MAX_JSON_DEPTH, pathOfNonFiniteNumber } from './json-limits';

function refusal(code: string, field: string, message: string): AppError {
  return new AppError(400, code, `Invalid ${field}: ${message}`, { issues: [{ field, message }] });
}

/** secure-json-parse's message for a `__proto__` key or a `constructor` holding `prototype`. */
const POISONING_MESSAGE = 'Object contains forbidden prototype property';

/**
 * Parses as Fastify's own parser does (secure-json-parse, prototype and constructor poisoning
 * refused), but says what is wrong: Fastify's parser answers every failure "Body is not valid JSON",
 * which sends a client looking for a syntax error in a body whose only fault is a `__proto__` key.
 */
function parseBody(text: string): { value: unknown } | { error: AppError } {
  try {
    return { value: secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch (error) {
    const message = (error as Error).message;
    if (message === POISONING_MESSAGE) {
      return { error: refusal('JSON_FORBIDDEN_KEY', 'body', 'a key named __proto__, or a constructor key holding prototype, is not accepted') };
    }
    // JSON.parse's own message names the position (`... in JSON at position 5 (line 1 column 6)`).
    return { error: refusal('JSON_MALFORMED', 'body', `not valid JSON: ${message}`) };
  }
}

/**
 * Replaces Fastify's JSON body parser with one that first checks the text's limits
 * (json-limits.ts) and then parses (parseBody); an empty body is no body. Registered by the app
 * factory, so every service is covered whether it runs behind the gateway or listens alone.
 */
export function registerLimitedJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  // Fastify parses text/plain into a string by default; bodies are JSON, so it is a 415 like any other type.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    // An empty body is no body, as Express's JSON parser takes it: many HTTP clients send their
    // JSON content type on every POST, a body-less one (publish) included. A route that needs a
    // body then answers its schema's VALIDATION_FAILED naming `body`.
    if (text.length === 0) return done(null, undefined);
    const violation = findJsonLimitViolation(text);
    if (violation === 'too-deep') {
      done(refusal('JSON_TOO_DEEP', 'body', `objects and arrays may nest at most ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    const parsed = parseBody(text);
    if ('error' in parsed) return done(parsed.error, undefined);
    if (violation === null) return done(null, parsed.value);
    const path = pathOfNonFiniteNumber(parsed.value);
    done(refusal('JSON_NUMBER_OUT_OF_RANGE', path ? `body.${path}` : 'body', 'number is too large to be stored'), undefined);
  });
}
