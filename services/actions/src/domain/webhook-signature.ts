import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-platform-signature';
export const TIMESTAMP_HEADER = 'x-platform-timestamp';

/**
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`: the timestamp is signed with the body so a
 * receiver can refuse replays of an old delivery.
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhookSignature(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(webhookSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
