import { actionsService } from '@platform/actions';
import { auditService } from '@platform/audit';
import { dataService } from '@platform/data';
import { startTestGateway } from '@platform/gateway/testing';
import { identityService } from '@platform/identity';
import { publishingService } from '@platform/publishing';
import { visitorsService } from '@platform/visitors';
import openapiTS, { astToString } from 'openapi-typescript';

/** The services whose routes the console calls directly (documents go through the sync SDK, also data's). */
const consoleServices = [identityService, dataService, auditService, actionsService, publishingService, visitorsService];

/** The gateway's /api/openapi.json with the console's services mounted, as TypeScript declarations. */
export async function generateOpenApiTypes(): Promise<string> {
  const gateway = await startTestGateway({ services: consoleServices });
  try {
    const document = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    const header = '// Generated from the gateway\'s /api/openapi.json by apps/console/scripts/openapi.ts at build; do not edit.\n';
    return header + astToString(await openapiTS(document, { alphabetize: true }));
  } finally {
    await gateway.close();
  }
}

export const OPENAPI_TYPES_FILE = new URL('./openapi.d.ts', import.meta.url);
