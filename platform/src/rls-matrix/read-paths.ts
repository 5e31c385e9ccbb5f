import type { HttpAnswer, HttpCall } from '../testing/platform-http';

/**
 * The entities written for one access rule: a document in a type of its own, an application, a
 * deleted document in the same type (a tombstone), written open and given the rule after its
 * deletion, as an owner restricts what a deleted document keeps, and an action run by the
 * creation of the type's documents.
 */
export interface RuleEntities {
  ruleKey: string;
  typeId: string;
  documentId: string;
  applicationId: string;
  deletedDocumentId: string;
  actionId: string;
}

export const readPaths = ['GET one', 'GET with history', 'list', 'pull', 'pull with history', 'audit trail', 'realtime', 'action runs', 'batch-rls dry run', 'versions', 'type schema', 'type list', 'type record'] as const;
export type ReadPath = (typeof readPaths)[number];

/** `type` is the rule's type itself, which only the type paths show. */
export type EntityKind = 'document' | 'application' | 'deleted document' | 'type' | 'action';

/** Which kinds of entity each read path can reveal. */
export const kindsOnPath: Record<ReadPath, EntityKind[]> = {
  // An action's record has no history to ask for.
  'GET one': ['document', 'application', 'deleted document', 'action'],
  'GET with history': ['document', 'application', 'deleted document'],
  // Lists never show deleted entities, whoever asks.
  list: ['document', 'application', 'action'],
  pull: ['document', 'application', 'deleted document'],
  'pull with history': ['document', 'application', 'deleted document'],
  'audit trail': ['document', 'application', 'deleted document'],
  // The deleted document's creation and deletion were announced while it was still open to every member.
  realtime: ['document', 'application'],
  // Actions run on documents only (applications and types trigger none); the rule's own action has runs to hide too. Batch RLS is per type.
  'action runs': ['document', 'deleted document', 'action'],
  // A dry run without includeDeleted targets live documents only (spec).
  'batch-rls dry run': ['document'],
  versions: ['application'],
  'type schema': ['type'],
  'type list': ['type'],
  'type record': ['type'],
};

/** What one caller learned: per read path, the ids of the entities it revealed. */
export type Revealed = Record<ReadPath, Set<string>>;

export function entityId(entities: RuleEntities, kind: EntityKind): string {
  if (kind === 'deleted document') return entities.deletedDocumentId;
  if (kind === 'type') return entities.typeId;
  if (kind === 'action') return entities.actionId;
  return kind === 'document' ? entities.documentId : entities.applicationId;
}

/**
 * The title written into every entity, so a leak of its content is caught even without its id.
 * Bracketed, so no entity's title contains another's (`doc_permission` vs `doc_permissionOrListed`).
 */
export function secretTitle(id: string): string {
  return `secret title of [${id}]`;
}

/** Ids of `entities` that `text` names, by a quoted id or the entity's secret title. */
function idsNamedIn(text: string, entities: RuleEntities[], kinds: EntityKind[]): string[] {
  return entities.flatMap((rule) => kinds.map((kind) => entityId(rule, kind))).filter((id) => text.includes(`"${id}"`) || text.includes(secretTitle(id)));
}

function okText(answer: HttpAnswer): string {
  return answer.status >= 200 && answer.status < 300 ? answer.text : '';
}

/**
 * Asks every read path what it shows `token`'s caller about the project's rule entities. The
 * realtime stream is collected elsewhere (it must be open before the writes) and passed in.
 */
export async function probeReadPaths(
  call: HttpCall,
  token: string | undefined,
  setup: { projectId: string; actionId: string; entities: RuleEntities[]; realtimeText: string },
): Promise<Revealed> {
  const project = `/api/projects/${setup.projectId}`;
  const { entities } = setup;
  const revealed = Object.fromEntries(readPaths.map((path) => [path, new Set<string>()])) as Revealed;
  const note = (path: ReadPath, ids: string[]) => ids.forEach((id) => revealed[path].add(id));

  const documentKinds: EntityKind[] = ['document', 'deleted document'];
  for (const rule of entities) {
    for (const [path, query] of [
      ['GET one', ''],
      ['GET with history', '?includeChanges=true'],
    ] as const) {
      const documents = await Promise.all([rule.documentId, rule.deletedDocumentId].map((id) => call('GET', `${project}/types/${rule.typeId}/data/${id}${query}`, token)));
      const application = await call('GET', `${project}/applications/${rule.applicationId}${query}`, token);
      note(path, idsNamedIn(documents.map(okText).join('') + okText(application), [rule], ['document', 'deleted document', 'application']));
    }
    // The action's id is in the URL: a 2xx reveals it.
    if (okText(await call('GET', `${project}/actions/${rule.actionId}`, token))) revealed['GET one'].add(rule.actionId);
    const ruleActionRuns = await call('GET', `${project}/actions/${rule.actionId}/runs?pageSize=200`, token);
    if (okText(ruleActionRuns)) revealed['action runs'].add(rule.actionId);
    note('action runs', idsNamedIn(okText(ruleActionRuns), entities, documentKinds));

    const listed = await call('GET', `${project}/types/${rule.typeId}/data`, token);
    note('list', idsNamedIn(okText(listed), entities, ['document']));
    const pulled = await call('GET', `${project}/types/${rule.typeId}/data?updatedAt=0`, token);
    note('pull', idsNamedIn(okText(pulled), entities, documentKinds));
    const pulledWithHistory = await call('GET', `${project}/types/${rule.typeId}/data?updatedAt=0&includeChanges=true`, token);
    note('pull with history', idsNamedIn(okText(pulledWithHistory), entities, documentKinds));

    // Each rule's document is alone in its type, so a dry run counting anything counts it.
    const dryRun = await call('POST', `${project}/types/${rule.typeId}/batch-rls`, token, { action: 'addUserId', operations: ['read'], userId: 'nobody', dryRun: true });
    if (dryRun.status === 200 && dryRun.body.matchingCount > 0) revealed['batch-rls dry run'].add(rule.documentId);

    const versions = await call('GET', `${project}/applications/${rule.applicationId}/versions`, token);
    note('versions', idsNamedIn(okText(versions), [rule], ['application']));

    // The type's id is in the URL: a 2xx reveals the type.
    const schema = await call('GET', `${project}/types/${rule.typeId}/schema`, token);
    if (okText(schema)) revealed['type schema'].add(rule.typeId);
    if (okText(await call('GET', `${project}/types/${rule.typeId}`, token))) revealed['type record'].add(rule.typeId);
  }
  note('type list', idsNamedIn(okText(await call('GET', `${project}/types`, token)), entities, ['type']));
  note('list', idsNamedIn(okText(await call('GET', `${project}/actions`, token)), entities, ['action']));
  note('list', idsNamedIn(okText(await call('GET', `${project}/applications`, token)), entities, ['application']));
  note('pull', idsNamedIn(okText(await call('GET', `${project}/applications?updatedAt=0`, token)), entities, ['application']));
  note('pull with history', idsNamedIn(okText(await call('GET', `${project}/applications?updatedAt=0&includeChanges=true`, token)), entities, ['application']));
  note('audit trail', idsNamedIn(okText(await call('GET', `${project}/audit-trail?limit=200`, token)), entities, ['document', 'deleted document', 'application']));
  note('action runs', idsNamedIn(okText(await call('GET', `${project}/actions/${setup.actionId}/runs?pageSize=200`, token)), entities, documentKinds));
  note('realtime', idsNamedIn(setup.realtimeText, entities, ['document', 'application']));
  return revealed;
}
