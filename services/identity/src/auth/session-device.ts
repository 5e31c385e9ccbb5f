import Bowser from 'bowser';
import type { FastifyRequest } from 'fastify';

/** Where a session was opened, as its owner sees it in their list of sessions. */
export interface SessionDevice {
  userAgent?: string;
  address?: string;
}

/** Longer user agents are cut: the value is stored with every session and shown, never interpreted. */
const MAX_USER_AGENT_LENGTH = 512;

/** The device of the request that signs in: its User-Agent and the client address the platform sees. */
export function requestDevice(request: FastifyRequest): SessionDevice {
  const userAgent = request.headers['user-agent']?.trim().slice(0, MAX_USER_AGENT_LENGTH);
  return { ...(userAgent ? { userAgent } : {}), ...(request.ip ? { address: request.ip } : {}) };
}

/**
 * What stays the same for one device from one sign-in to the next: the browser and system without
 * their versions ("Firefox on Windows": a browser updates itself every few weeks), or the first
 * product's name of anything else ("curl"); null without a user agent.
 */
export function deviceFamily(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name) return os.name ? `${browser.name} on ${os.name}` : browser.name;
  return userAgent.split(/[\s/]+/)[0] ?? null;
}

/**
 * A person's name for a user agent: "Firefox 133 on Windows" for a browser (bowser reads it), the
 * first product of anything else ("curl 8.5.0", "node"); null without one.
 */
export function describeDevice(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name) {
    const name = [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ');
    return os.name ? `${name} on ${os.name}` : name;
  }
  const [product = userAgent] = userAgent.split(/\s+/);
  return product.replace('/', ' ');
}
