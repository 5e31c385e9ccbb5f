import { changeKinds } from '@platform/contracts';
import { ID_PATTERN } from '@platform/documents';
import { numberText } from '@platform/kit';
import { z } from 'zod';
import { clampLimit, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/trail-query';
import { auditError } from '../errors';
import { ACTIONS, DOMAINS, MEMBERS, PROJECT_RECORD_TYPE_IDS, PROJECT_SETTINGS } from '../trail/trail-item';

/** Pages past this are refused: skipping further would scan more than any trail holds. */
export const MAX_PAGE = 1_000_000;

/**
 * A whole number of at least `minimum`, typed as a number: `20` and `20.0` are the same, `2.5`,
 * `abc` and `0x10` are refused (numberText), and so is a number past the safe integers (the
 * description's maximum), as too big.
 */
const wholeNumber = (minimum: number) =>
  z.coerce
    .number('must be a number')
    .int({ error: (issue) => (issue.code === 'too_big' ? `must be at most ${Number.MAX_SAFE_INTEGER}` : 'must be a whole number') })
    .min(minimum, `must be at least ${minimum}`);

/** The trail's filters, the same for a page and an export. */
export const trailFilterShape = {
  userId: z.string().min(1).max(200).optional().describe('Only changes by this user'),
  typeId: z
    .union([z.enum(PROJECT_RECORD_TYPE_IDS as [string, ...string[]]), z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -')])
    .optional()
    .describe(`Only changes to entities of this type (types, applications for those collections; ${PROJECT_SETTINGS.typeId} for the project's own settings, ${MEMBERS.typeId} for membership changes, ${ACTIONS.typeId} for saved actions, ${DOMAINS.typeId} for domains)`),
  from: numberText(wholeNumber(0)).optional().describe('Range start, Unix ms, inclusive'),
  to: numberText(wholeNumber(0)).optional().describe('Range end, Unix ms, inclusive'),
  changeType: z.enum(changeKinds).optional().describe('created, updated or deleted'),
};

export const trailPageQuerySchema = z.object({
  // The piped bound is not in the API description (it shows the input side), so meta declares it.
  page: numberText(
    wholeNumber(1)
      .pipe(z.number().max(MAX_PAGE, `must be at most ${MAX_PAGE}`))
      .meta({ maximum: MAX_PAGE })
      .default(1),
  ).describe('1-based page number (default 1)'),
  limit: numberText(wholeNumber(1).default(DEFAULT_PAGE_SIZE))
    .transform(clampLimit)
    .describe(`Items per page (default ${DEFAULT_PAGE_SIZE}); larger values are clamped to ${MAX_PAGE_SIZE}`),
  ...trailFilterShape,
});

export const trailProjectParams = z.object({ projectId: z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -') });

/** An inverted range is refused, naming `from` as validation errors name their field. */
export function refuseInvertedRange(query: { from?: number; to?: number }): void {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw auditError('AUDIT_INVALID_RANGE', { details: { field: 'from', from: query.from, to: query.to } });
  }
}
