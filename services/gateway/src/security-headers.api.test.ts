import type { ServiceDefinition } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing';

/** Serves an SVG the way identity serves initials avatars, with a script inside to be blocked. */
const avatarService: ServiceDefinition = {
  name: 'identity',
  routes: async (app) => {
    app.get('/api/users/u1/avatar', async (_request, reply) =>
      reply.type('image/svg+xml').send('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>'),
    );
  },
};

let platform: TestGateway;

beforeAll(async () => {
  platform = await startTestGateway({ services: [avatarService] });
});

afterAll(async () => {
  await platform?.close();
});

function directives(policy: string | null): Map<string, string> {
  return new Map((policy ?? '').split(';').map((part) => part.trim()).filter(Boolean).map((part) => [part.split(' ')[0]!, part.slice(part.indexOf(' ') + 1)]));
}

describe('security headers through the gateway', () => {
  it.each(['/api/health', '/api/users/u1/avatar', '/api/nowhere', '/llm.txt'])('%s: no sniffing, no framing, a policy that allows nothing', async (path) => {
    const response = await fetch(`${platform.url}${path}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.has('script-src')).toBe(false);
  });

  it.each(['/api/health', '/api/users/u1/avatar', '/api/nowhere'])('%s: an API answer carries the API set of headers, not the ones that instruct a page', async (path) => {
    const { headers } = await fetch(`${platform.url}${path}`);
    expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
    for (const pageOnly of ['cross-origin-opener-policy', 'origin-agent-cluster', 'referrer-policy', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']) {
      expect(headers.get(pageOnly), pageOnly).toBeNull();
    }
  });

  it.each(['/llm.txt', '/api/docs/'])('%s: a page carries all of helmet\'s headers', async (path) => {
    const { headers } = await fetch(`${platform.url}${path}`);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.get('origin-agent-cluster')).toBe('?1');
    expect(headers.get('x-permitted-cross-domain-policies')).toBe('none');
    expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });

  it('the SVG avatar cannot run its script', async () => {
    const response = await fetch(`${platform.url}/api/users/u1/avatar`);
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
    expect(directives(response.headers.get('content-security-policy')).get('default-src')).toBe("'none'");
  });

  it('/api/docs loads: its page allows its own scripts and styles, and every asset and the OpenAPI document it names are served', async () => {
    const page = await fetch(`${platform.url}/api/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const policy = directives(page.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => new URL(match[1]!, `${platform.url}/api/docs/`));
    expect(assets.filter((asset) => asset.pathname.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.origin, asset.href).toBe(platform.url);
      expect((await fetch(asset)).status, asset.href).toBe(200);
    }
    const initializer = await (await fetch(`${platform.url}/api/docs/static/swagger-initializer.js`)).text();
    // The initializer resolves the document's URL against the page's (with a trailing slash).
    const specUrl = /url: resolveUrl\('([^']+)'\)/.exec(initializer);
    expect(specUrl).not.toBeNull();
    const spec = await fetch(new URL(specUrl![1]!, `${platform.url}/api/docs/`));
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
