import { writeFile } from 'node:fs/promises';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from '../src/api/openapi-document';

// Writes src/api/openapi.d.ts before every build (and so at pnpm install), so the console is always
// type-checked (pnpm lint) against the routes as they are now.
await writeFile(OPENAPI_TYPES_FILE, await generateOpenApiTypes());
