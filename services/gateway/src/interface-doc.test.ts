import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDES_PREFIX } from './guides';
import { routeTable, sessionBypassList } from './route-table';

/** Paths the gateway answers itself besides the session bypass list (see the route table's comment). */
const gatewayPaths = ['/api/openapi.json', '/api/docs', '/api/realtime', `${GUIDES_PREFIX}/{guide}`];

/** `:projectId` in the table is written `{projectId}` in the guide, as in the OpenAPI document. */
const asWritten = (prefix: string) => prefix.replace(/:([A-Za-z]+)/g, '{$1}');

describe('docs/interface.md, the interface in one page', () => {
  it('names every path family the gateway answers or routes, so a new one cannot go undocumented', async () => {
    const guide = await readFile(resolve(__dirname, '../../../docs/interface.md'), 'utf8');
    const families = [...sessionBypassList, ...gatewayPaths, ...routeTable.map((entry) => asWritten(entry.prefix))];
    expect(families.filter((family) => !guide.includes(`\`${family}`) && !guide.includes(` ${family}`))).toEqual([]);
  });
});
