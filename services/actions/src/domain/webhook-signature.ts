import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-platform-signature';
export const TIMESTAMP_HEADER = 'x-platform-timestamp';
/** The project whose action made the call; it is part of what is signed. */
export const PROJECT_HEADER = 'x-platform-project-id';

/**
 * The key a project's deliveries are signed with when the block has no `secret`: derived from
 * ACTIONS_WEBHOOK_SECRET per project, so no project holds (or gets signatures under) a key that
 * another project's receivers accept. A 64-character hex string, used as it is (its UTF-8 bytes)
 * as the HMAC key, like a block's own secret.
 */
export function projectWebhookKey(globalSecret: string, projectId: string): string {
  return createHmac('sha256', globalSecret).update(`webhook:${projectId}`).digest('hex');
}

/**
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<projectId>.<body>">`. The timestamp lets a receiver
 * refuse replays of an old delivery; the project id (ids hold no dot) that one project's delivery
 * cannot pass as another's.
 */
export function webhookSignature(key: string, projectId: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${projectId}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute with its key and the project it expects, compare in constant time. */
export function verifyWebhookSignature(key: string, projectId: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(webhookSignature(key, projectId, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
