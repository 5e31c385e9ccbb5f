import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing';

const docs = resolve(__dirname, '../../../docs');
let platform: TestGateway;

beforeAll(async () => {
  platform = await startTestGateway({ services: [], guidesRoot: docs });
});

afterAll(async () => {
  await platform?.close();
});

describe('/api/docs presents this platform', () => {
  it('the OpenAPI document is titled and introduced as the platform, linking to the guides that exist', async () => {
    const { info } = (await platform.call('GET', '/api/openapi.json')).body as { info: { title: string; description: string } };
    expect(info.title).toBe('Platform API');
    expect(info.description).toContain('POST /api/auth/register');
    expect(info.description).toContain('Authorization: Bearer <token>');
    expect(info.description).toContain('[/llm.txt](/llm.txt)');
    const guides = [...info.description.matchAll(/\]\((\/docs\/[a-z-]+\.md)\)/g)].map((match) => match[1]!);
    expect(guides).toEqual(expect.arrayContaining(['/docs/interface.md', '/docs/identity.md', '/docs/data.md', '/docs/sync.md', '/docs/architecture.md']));
    for (const guide of guides) {
      const opened = await platform.call('GET', guide);
      expect(opened.status, guide).toBe(200);
      expect(opened.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      // As in the repository, but for links to the SDK's README (the next test).
      expect((opened.body as string).replaceAll('](sync-client.md)', '](../libs/sync-client/README.md)')).toBe(readFileSync(resolve(docs, guide.slice('/docs/'.length)), 'utf8'));
    }
  });

  it("serves the sync client's README, which lives outside docs/, as /docs/sync-client.md", async () => {
    const opened = await platform.call('GET', '/docs/sync-client.md');
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(opened.body).toBe(readFileSync(resolve(docs, '../libs/sync-client/README.md'), 'utf8'));
    // docs/sync.md links it by its path in the repository, which leads nowhere from /docs/sync.md: served, it links the guide beside it.
    expect(readFileSync(resolve(docs, 'sync.md'), 'utf8')).toContain('](../libs/sync-client/README.md)');
    const sync = (await platform.call('GET', '/docs/sync.md')).body as string;
    expect(sync).toContain('[libs/sync-client/README.md](sync-client.md)');
    expect(sync).not.toContain('../libs/');
    expect(new URL('sync-client.md', `${platform.url}/docs/sync.md`).pathname).toBe('/docs/sync-client.md');
  });

  it('serves only the guides: another name, or a path out of docs/, is 404 naming the guides there are', async () => {
    const unknown = await platform.call('GET', '/docs/secrets.md');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'GATEWAY_GUIDE_NOT_FOUND', error: expect.stringContaining('interface.md') });
    for (const outside of ['/docs/..%2FREADME.md', '/docs/..%2F..%2Fpackage.json', '/docs/%2Fetc%2Fpasswd']) expect((await platform.call('GET', outside)).status, outside).toBe(404);
  });

  it('the page carries the platform title, icon and logo instead of Swagger UI and Fastify', async () => {
    const page = await fetch(`${platform.url}/api/docs/`);
    const html = await page.text();
    expect(html).toContain('<title>Platform API</title>');
    expect(html).not.toContain('Swagger UI</title>');
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html);
    expect(icon).not.toBeNull();
    const served = await fetch(new URL(icon![1]!, `${platform.url}/api/docs/`));
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('Platform API');

    const initializer = await (await fetch(`${platform.url}/api/docs/static/swagger-initializer.js`)).text();
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer);
    expect(logo).not.toBeNull();
    const svg = Buffer.from(logo![1]!, 'base64').toString('utf8');
    expect(svg).toContain('Platform API');
  });
});
