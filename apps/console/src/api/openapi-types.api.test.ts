import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from './openapi-document';

it('the console client is typed from the current /api/openapi.json (regenerate with pnpm --filter @platform/console openapi)', async () => {
  expect(await generateOpenApiTypes()).toBe(await readFile(OPENAPI_TYPES_FILE, 'utf8'));
});
