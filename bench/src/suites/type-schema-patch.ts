import { loadavg } from 'node:os';
import { validateDocument } from '@platform/documents';
import { forEachConcurrently, signedInClient } from '../api-client';
import { compareLoads } from '../load';
import { formatRow, loadRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';
import { FIXTURE_FIELDS, patchRequests } from './data-documents';

const CONNECTIONS = 32;
/** Documents per type the PATCH load spreads over (each request takes one no other has in flight). */
const DOCUMENTS = 1_600;
/** Validations timed in this process for the CPU cost of one. */
const VALIDATIONS = 20_000;
/** The ratio issue 28 asks for: PATCH with a 20-field schema against the same PATCH without one. */
const TARGET_RATIO = 0.9;

/** Sixteen more fields, so documents of both types hold the same 20 fields. */
const EXTRA_FIELDS = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`field${index}`, index % 4 === 0 ? `value ${index}` : index % 4 === 1 ? index : index % 4 === 2 ? { city: 'Berlin', zip: '10115' } : ['a', 'b']]));

/** A 20-field JSON Schema of the kinds of keyword people use: lengths, patterns, formats, bounds, enums, nested objects, arrays, a $ref. */
const TWENTY_FIELD_SCHEMA = {
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string', minLength: 1, maxLength: 100 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['city'] } },
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    status: { enum: ['open', 'busy', 'done'] },
    count: { type: 'integer', minimum: 0 },
    notes: { type: 'string', maxLength: 10_000 },
    ...Object.fromEntries(
      Object.keys(EXTRA_FIELDS).map((name, index) => [
        name,
        index % 4 === 0 ? { type: 'string', pattern: '^value [0-9]+$' } : index % 4 === 1 ? { type: 'number', maximum: 1_000 } : index % 4 === 2 ? { $ref: '#/$defs/address' } : { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 50 },
      ]),
    ),
  },
  required: ['title', 'status', 'count'],
};

/**
 * CPU time of validating one fixture document (as a PATCH does, with the write's budget) in this
 * process: CPU time, unlike throughput, barely moves when other work shares the machine.
 */
function validationCpuMicroseconds(): number {
  const document = { title: 'Document 1', ...FIXTURE_FIELDS, ...EXTRA_FIELDS, status: 'busy', count: 1 };
  validateDocument(TWENTY_FIELD_SCHEMA, document);
  const started = process.cpuUsage();
  for (let round = 0; round < VALIDATIONS; round += 1) {
    if (validateDocument(TWENTY_FIELD_SCHEMA, document, { budgetMs: 50 }).length) throw new Error('the fixture document does not match its schema');
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / VALIDATIONS;
}

/**
 * Schema validation cost (issue 28): PATCH throughput on documents of a type with a 20-field JSON
 * Schema against the same documents and modifier on a type without a schema, all-in-one.
 */
export async function typeSchemaPatch(): Promise<void> {
  const result = await withPlatformProcess({ SERVICES: 'all' }, async (platform) => {
    const client = await signedInClient(platform.url);
    const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Benchmark' });
    const projectPath = `/api/projects/${project.id}`;
    await client.call('POST', `${projectPath}/types`, { id: 'plain', name: 'Without schema' });
    await client.call('POST', `${projectPath}/types`, { id: 'schema20', name: 'With a 20-field schema', schema: TWENTY_FIELD_SCHEMA });
    const documents = async (typeId: string) => {
      const created: Array<{ id: string; revision: number }> = [];
      await forEachConcurrently(
        Array.from({ length: DOCUMENTS }, (_, index) => index),
        16,
        async (index) => {
          const document = await client.call<{ id: string; revision: number }>('POST', `${projectPath}/types/${typeId}/data`, { title: `Document ${index}`, ...FIXTURE_FIELDS, ...EXTRA_FIELDS });
          created.push({ id: document.id, revision: document.revision });
        },
      );
      return created;
    };
    const headers = { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' };
    const target = async (typeId: string) => ({ url: platform.url, headers, connections: CONNECTIONS, requests: patchRequests(`${projectPath}/types/${typeId}/data`, await documents(typeId)) });
    return compareLoads({ plain: await target('plain'), schema20: await target('schema20') });
  });
  const ratio = result.schema20!.requestsPerSecond / result.plain!.requestsPerSecond;
  const validationUs = validationCpuMicroseconds();
  // Other work shares the machine; the load says how far the two figures can drift apart by chance.
  const load = loadavg()[0]!.toFixed(1);
  await writeSection(
    'type-schema-patch',
    `## Type schema validation cost (issue 28)

Command: \`pnpm bench type-schema-patch\`. All-in-one, ${CONNECTIONS} connections, PATCH
\`{ $inc: { count: 1 }, $set: { status: 'busy' } }\` on ${DOCUMENTS.toLocaleString('en-US')} documents per type
(each request takes a document no other has in flight, at the revision its last answer gave), every
document with the same 20 fields. One type has a 20-field JSON Schema (lengths, patterns, a bound,
an enum, \`$ref\` to an address with a pattern, arrays with item rules); Ajv checks the whole
document after the modifier on every PATCH. The other type has no schema. Load average (1 min) at
the end of the run: ${load}; on a loaded machine a ratio above 1 is noise, meaning validation costs
less than the run-to-run drift. So the suite also times the validation itself: CPU time of one
validation of a fixture document in the benchmark process (${VALIDATIONS.toLocaleString('en-US')} runs), to set against the
CPU one PATCH costs (at most about 0.7 ms: 2 cores, shared with the load generator, at the ~2,700 PATCH/s of the data-documents suite).

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'PATCH, type without schema', result.plain!)}
${loadRow('all-in-one', 'PATCH, type with a 20-field schema', result.schema20!)}

| shape | with schema / without (target ≥ ${TARGET_RATIO}x) | validation CPU µs per document |
|---|---|---|
${formatRow(['all-in-one', `${ratio.toFixed(2)}x`, validationUs.toFixed(1)])}`,
  );
  console.log(`type schema PATCH: ${ratio.toFixed(2)}x of a type without schema; validation ${validationUs.toFixed(1)} µs CPU`);
}
