import { writeFile } from 'node:fs/promises';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from '../src/api/openapi-document';

// Regenerates src/api/openapi.d.ts; src/api/openapi-types.api.test.ts fails while it is stale.
await writeFile(OPENAPI_TYPES_FILE, await generateOpenApiTypes());
