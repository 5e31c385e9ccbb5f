import type { TypeSchema } from './domain/type-schema';
import { typeSchemaInputSchema } from './domain/type-schema-input';

/**
 * A type schema that uses every keyword the platform supports at least once (lengths, formats, a
 * pattern, bounds, enum, const, nullable union, arrays and a `$ref` to `$defs`): the fixture the
 * validator's and the sample generator's tests share, so both are judged on the same schema.
 */
export const everyKeywordSchema: TypeSchema = typeSchemaInputSchema.parse({
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 40 },
    email: { type: 'string', format: 'email' },
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$' },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    price: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.01 },
    status: { enum: ['open', 'closed'] },
    kind: { const: 'contact' },
    done: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    born: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    address: { $ref: '#/$defs/address' },
    places: { type: 'array', items: { $ref: '#/$defs/address' } },
  },
  required: ['title'],
  $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
});
