import { createHmac } from 'node:crypto';

/**
 * The token a project publishes in DNS to take a hostname from another project's unverified
 * claim: HMAC-SHA256 of (project, hostname) under the service's takeover key, 128 bits like a
 * claim's token. Stable, so the caller can publish it and send the request again; bound to the
 * project, so the record lets that project take the hostname and no other; keyed, so the public
 * record does not tell which project it names.
 */
export function takeoverToken(key: Buffer, projectId: string, hostname: string): string {
  // Ids and hostnames hold no newline: the separator keeps every (project, hostname) pair apart.
  return createHmac('sha256', key).update(`domain-takeover\n${projectId}\n${hostname}`).digest('hex').slice(0, 32);
}
