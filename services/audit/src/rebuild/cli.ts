import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnv } from '@platform/kit';
import { openDocumentStore } from '@platform/storage';
import { z } from 'zod';
import { rebuildProjectTrail } from './rebuild-project';

/** The store the platform uses: MONGO_URL (microservice shape) or the embedded store in DATA_DIR. */
const envSchema = z.object({
  MONGO_URL: z.url().optional(),
  MONGO_DATABASE: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/).default('platform'),
  DATA_DIR: z.string().default('./.data'),
  /** pnpm runs the script in services/audit; paths are meant from where it was invoked. */
  INIT_CWD: z.string().default(process.cwd()),
});

/** `pnpm --filter @platform/audit run rebuild --project <id>`: regenerates one project's audit trail. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { project: { type: 'string' } }, strict: true });
  const projectId = values.project;
  if (!projectId || !/^[A-Za-z0-9_-]{1,64}$/.test(projectId)) {
    console.error('usage: pnpm --filter @platform/audit run rebuild --project <projectId>');
    process.exit(2);
  }
  const env = parseEnv(envSchema);
  const store = await openDocumentStore({ mongoUrl: env.MONGO_URL, mongoDatabase: env.MONGO_DATABASE, dataDir: resolve(env.INIT_CWD, env.DATA_DIR) });
  try {
    const started = Date.now();
    const report = await rebuildProjectTrail(store, projectId);
    console.log(`rebuilt the audit trail of ${projectId}: ${report.items} items from ${report.entities} entities in ${Date.now() - started} ms`);
  } finally {
    await store.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
