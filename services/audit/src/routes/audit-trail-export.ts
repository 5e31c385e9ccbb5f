import { Readable } from 'node:stream';
import type { DomainTarget } from '@platform/contracts';
import type { ProjectAccess } from '@platform/kit';
import { stringify } from 'csv-stringify';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { trailFilter } from '../domain/trail-query';
import type { AuthorNames, TrailReader } from '../trail/author-names';
import { shownItems } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { readableTrailFilter } from './readable-trail-filter';
import { trailFilterShape, trailProjectParams } from './trail-query-schema';

/** The export's columns, in order: the page's item fields, the time also as ISO 8601 for spreadsheets, permissions space-separated. */
const COLUMNS = [
  'time',
  'timestamp',
  'entityTypeId',
  'entityTypeName',
  'entityId',
  'entityTitle',
  'revision',
  'changeDescription',
  'userId',
  'userDisplayName',
  'permissions',
  'previousPermissions',
  'target',
  'previousTarget',
  'previousTitle',
  'tenantId',
  'previousTenantId',
  'ownerId',
  'previousOwnerId',
] as const;

/** A domain's target in one cell: `<applicationId>@<versionId>`, or `<applicationId>@latest` when it follows the latest publish. */
function targetCell(target: DomainTarget | undefined): string | undefined {
  return target && `${target.applicationId}@${target.versionId ?? 'latest'}`;
}

/** Each stored item as the reader may see it (RLS applied by the filter, names by privacy), a batch at a time. */
async function* readableRows(trail: TrailStore, authorNames: AuthorNames, reader: TrailReader, filter: ReturnType<typeof trailFilter>): AsyncGenerator<Record<(typeof COLUMNS)[number], unknown>> {
  for await (const batch of trail.batches(filter)) {
    for (const shown of await shownItems(batch, reader, authorNames)) {
      yield {
        time: new Date(shown.timestamp).toISOString(),
        ...shown,
        permissions: shown.permissions?.join(' '),
        previousPermissions: shown.previousPermissions?.join(' '),
        target: targetCell(shown.target),
        previousTarget: targetCell(shown.previousTarget),
        previousTitle: shown.previousTitle,
        tenantId: shown.tenantId,
        previousTenantId: shown.previousTenantId,
        ownerId: shown.ownerId,
        previousOwnerId: shown.previousOwnerId,
      };
    }
  }
}

/**
 * GET /api/projects/{projectId}/audit-trail/export: the whole trail the page route would show
 * the caller, with the same filters, as one CSV file (newest first), streamed as it is read.
 * Cells a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
 * are written with a leading `'` (csv-stringify's escape_formulas): entity titles are anyone's text.
 */
export function registerAuditTrailExportRoute(app: FastifyInstance, deps: { projects: ProjectAccess; trail: TrailStore; authorNames: AuthorNames }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/audit-trail/export',
    {
      schema: {
        tags: ['audit'],
        summary: 'The project audit trail as a CSV file: every change the caller may read, newest first, with the same filters as the page',
        description: `Columns: ${COLUMNS.join(', ')} (time is the timestamp in ISO 8601). UTF-8 with a byte order mark, so spreadsheets read names right; a cell that starts like a formula is written with a leading '.`,
        params: trailProjectParams,
        querystring: z.object(trailFilterShape),
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv') },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      // Checked before the answer starts, so a refusal is the usual JSON error.
      const { reader, filter } = await readableTrailFilter(request, projectId, request.query, deps.projects);
      const rows = Readable.from(readableRows(deps.trail, deps.authorNames, reader, filter));
      const csv = rows.pipe(stringify({ header: true, columns: [...COLUMNS], bom: true, escape_formulas: true }));
      rows.on('error', (error) => csv.destroy(error));
      const day = new Date().toISOString().slice(0, 10);
      // A stream, which Fastify sends as it is read; the response schema only documents what it carries.
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-trail-${projectId}-${day}.csv"`).send(csv as unknown as string);
    },
  );
}
