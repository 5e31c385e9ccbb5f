import type { DocumentStore } from '@platform/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import { platformOwnerGuard } from './admin';

const backupSchema = z.object({
  directory: z.string().describe('Where the copy is, on the server: start with DATA_DIR set to it to restore'),
  bytes: z.number(),
  records: z.number().describe('Log lines written: one per document and one per index'),
  durationMs: z.number(),
});

/**
 * `POST /api/admin/backups`: a consistent copy of the embedded store, taken while the platform
 * serves writes, in a new directory under DATA_DIR/backups. The microservice shape's MongoDB
 * is backed up with its own tools.
 */
export function registerBackupRoutes(app: FastifyInstance, store: DocumentStore): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/backups',
    {
      preHandler: platformOwnerGuard,
      schema: { tags: ['admin'], summary: 'Back up the embedded store while it serves (platform owners)', response: { 201: backupSchema } },
    },
    async (_request, reply) => {
      if (!store.backup) throw identityError('IDENTITY_BACKUP_UNSUPPORTED');
      return reply.code(201).send(await store.backup());
    },
  );
}
