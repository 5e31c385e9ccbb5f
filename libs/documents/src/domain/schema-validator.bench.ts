import { bench, describe } from 'vitest';
import { pinTypeSchema, validateDocument } from './schema-validator';
import { loadedTypeFields, storedTypeFields } from './type-schema-storage';
import { typeSchemaInputSchema } from './type-schema-input';

/**
 * Cost of one validation of a 20-field document, as a PATCH pays it, and of unescaping a type's
 * schema on a read (issue 28; the throughput figure is `pnpm bench type-schema-patch`). Run:
 * `pnpm exec vitest bench --run --project unit libs/documents/src/domain/schema-validator.bench.ts`.
 */
const extraFields = Array.from({ length: 16 }, (_, index) => `field${index}`);

const twentyFieldSchema = typeSchemaInputSchema.parse({
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string', minLength: 1, maxLength: 100 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['city'] } },
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    status: { enum: ['open', 'busy', 'done'] },
    count: { type: 'integer', minimum: 0 },
    notes: { type: 'string', maxLength: 10_000 },
    ...Object.fromEntries(
      extraFields.map((name, index) => [
        name,
        [{ type: 'string', pattern: '^value [0-9]+$' }, { type: 'number', maximum: 1_000 }, { $ref: '#/$defs/address' }, { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 50 }][index % 4],
      ]),
    ),
  },
  required: ['title', 'status', 'count'],
});

const document = {
  title: 'Document 1',
  status: 'busy',
  count: 1,
  notes: 'Benchmark fixture with a little text in it.',
  ...Object.fromEntries(extraFields.map((name, index) => [name, [`value ${index}`, index, { city: 'Berlin', zip: '10115' }, ['a', 'b']][index % 4]])),
};

const budget = { budgetMs: 50 };
const pinned = pinTypeSchema(structuredClone(twentyFieldSchema));
const storedType = storedTypeFields({ id: 'schema20', name: 'With a 20-field schema', schema: twentyFieldSchema, revision: 3, createdAt: 1, updatedAt: 2 });

describe('validating a 20-field document', () => {
  bench('pinned schema, with the budget (a PATCH: the type directory pins each revision)', () => {
    validateDocument(pinned, document, budget);
  });

  bench('pinned schema, without a budget', () => {
    validateDocument(pinned, document);
  });

  bench('schema object not pinned, with the budget (its validator found by its text)', () => {
    validateDocument(twentyFieldSchema, document, budget);
  });
});

describe('reading a type with a 20-field schema', () => {
  bench('unescaping its stored schema (a read that is not of a pinned revision)', () => {
    loadedTypeFields(storedType);
  });
});
