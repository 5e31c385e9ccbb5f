import type { EntityRecord, FieldChoice, SyncDocument, SyncState } from './types.js';

/** Fields the server keeps beside a document's data (the data service's SYSTEM_FIELDS): never sent, never part of `local`. */
const SYSTEM_FIELDS: ReadonlySet<string> = new Set(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'changes', 'projectId', 'typeId', 'tenantId']);

/** Document fields only the server sets (visitor records: retention and latest check-in); readable, never written by clients. */
const SERVER_SET_FIELDS: ReadonlySet<string> = new Set(['deleteOn', 'deleteOnPreference', 'latestEventType', 'latestEventAt']);

/** Every top-level field the server refuses from clients, as its document routes do. */
export const SERVER_OWNED_FIELDS: readonly string[] = [...SYSTEM_FIELDS, ...SERVER_SET_FIELDS];

/** A document as the application sees it: its fields, plus the server's metadata once it has some. */
export type LocalDocument = { id: string; revision?: number; createdAt?: number; updatedAt?: number } & Record<string, unknown>;

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function isServerOwned(field: string): boolean {
  return SYSTEM_FIELDS.has(field) || SERVER_SET_FIELDS.has(field);
}

/**
 * Why a top-level field name cannot be written, as the server's document routes refuse it, or
 * undefined. A `.` would turn the name into a path on the server (`$set: { "a.b": 1 }` sets `b`
 * inside `a`), so the server's document would silently differ from the local one.
 */
export function fieldNameProblem(field: string): { code: string; message: string } | undefined {
  if (isServerOwned(field)) return { code: 'SYNC_SERVER_OWNED_FIELD', message: `Field ${field} is set by the server; clients may not write it` };
  if (field.includes('.')) return { code: 'SYNC_INVALID_FIELD_NAME', message: `Field name ${field} may not contain '.'; nest an object instead` };
  return undefined;
}

/** The ids the server's document routes take (their `id` pattern): 1 to 64 letters, digits, _ or -. */
export const ENTITY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isEntityId(id: unknown): id is string {
  return typeof id === 'string' && ENTITY_ID_PATTERN.test(id);
}

/** The type-defined fields of a server document. */
export function fieldsOf(document: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) if (!SYSTEM_FIELDS.has(key)) fields[key] = value;
  return fields;
}

/** The server's answer without its history (the client stores no `changes`). */
export function serverDocument(answer: Record<string, unknown>): SyncDocument {
  const { changes: _changes, ...document } = answer;
  return document as SyncDocument;
}

export type PendingOperation = 'insert' | 'patch' | 'delete';

/**
 * What the next push sends for this entity, if anything. localOnly records are never sent. A
 * deleted record the server never confirmed is deleted there too when an insert of it was sent
 * (`sentInserts`: its answer was lost, so it may have landed); a 404 says it had not.
 */
export function pendingOperation(record: EntityRecord): PendingOperation | undefined {
  if (record.localOnly || record.conflict) return undefined;
  if (record.deleted) return record.server ? (record.server.deletedAt === undefined ? 'delete' : undefined) : mayExistOnServer(record) ? 'delete' : undefined;
  if (!record.server) return record.local ? 'insert' : undefined;
  return record.touched.length > 0 ? 'patch' : undefined;
}

/** An insert of this record was sent without an answer (lost, or still in flight): the server may hold it. */
export function mayExistOnServer(record: EntityRecord): boolean {
  return record.server !== undefined || (record.sentInserts?.length ?? 0) > 0;
}

export function stateOf(record: EntityRecord): SyncState {
  if (record.conflict) return 'conflict';
  if (record.localOnly || pendingOperation(record)) return 'localChanges';
  return 'synced';
}

/** The visible document, or undefined when it is deleted (locally or on the server). */
export function visibleDocument(record: EntityRecord): LocalDocument | undefined {
  if (record.deleted || !record.local) return undefined;
  const meta = record.server ? { revision: record.server.revision, createdAt: record.server.createdAt, updatedAt: record.server.updatedAt } : {};
  return { ...record.local, ...meta, id: record.id };
}

/** `$set` for the fields changed locally, `$unset` for those removed: only what this client touched. */
export function patchModifier(record: EntityRecord): Record<string, Record<string, unknown>> {
  const local = record.local ?? {};
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, ''> = {};
  for (const field of record.touched) {
    if (Object.prototype.hasOwnProperty.call(local, field)) $set[field] = local[field];
    else $unset[field] = '';
  }
  return { ...(Object.keys($set).length ? { $set } : {}), ...(Object.keys($unset).length ? { $unset } : {}) };
}

/** The server's document with this client's touched fields laid over it. */
function overlayTouched(record: EntityRecord, server: SyncDocument, fields: string[]): Record<string, unknown> {
  const local = fieldsOf(server);
  for (const field of fields) {
    if (record.local && Object.prototype.hasOwnProperty.call(record.local, field)) local[field] = record.local[field];
    else delete local[field];
  }
  return local;
}

/**
 * After the server accepted a push: `server` is its answer. Edits made while the push was in
 * flight (`seq` moved on) stay pending on top of it; otherwise the record is clean. A newer server
 * version a pull saw meanwhile is taken when nothing is pending any more.
 */
export function afterPush(record: EntityRecord, server: SyncDocument, pushedSeq: number): void {
  record.server = server;
  record.sentInserts = undefined;
  if (server.deletedAt !== undefined) {
    record.local = undefined;
    record.deleted = false;
    record.touched = [];
  } else if (record.seq === pushedSeq) {
    record.local = fieldsOf(server);
    record.touched = [];
  } else if (!record.deleted) {
    record.local = overlayTouched(record, server, record.touched);
    record.touched = record.touched.filter((field) => !deepEqual(record.local?.[field], server[field]));
  }
  if (record.newer && record.newer.revision <= server.revision) record.newer = undefined;
  if (record.newer && !pendingOperation(record)) {
    takeServer(record, record.newer);
    record.newer = undefined;
  }
}

function takeServer(record: EntityRecord, server: SyncDocument): void {
  record.server = server;
  record.local = server.deletedAt === undefined ? fieldsOf(server) : undefined;
  record.touched = [];
  record.deleted = false;
}

export type PullClassification = 'added' | 'modified' | 'removed' | undefined;

/**
 * Applies one pulled document. A record with pending changes or a conflict keeps its base (so the
 * next push still meets the 409 the spec wants) and remembers the newer version instead.
 */
export function applyPulled(record: EntityRecord | undefined, item: SyncDocument): { record?: EntityRecord; classification: PullClassification } {
  if (!record) {
    if (item.deletedAt !== undefined) return { classification: undefined };
    return { record: { id: item.id, server: item, local: fieldsOf(item), deleted: false, touched: [], seq: 0 }, classification: 'added' };
  }
  if (record.server && item.revision <= record.server.revision) return { record, classification: undefined };
  if (record.localOnly || record.conflict || pendingOperation(record)) {
    if (!record.newer || item.revision > record.newer.revision) record.newer = item;
    return { record, classification: undefined };
  }
  const wasVisible = record.local !== undefined && !record.deleted;
  takeServer(record, item);
  if (item.deletedAt !== undefined) return { record, classification: wasVisible ? 'removed' : undefined };
  return { record, classification: wasVisible ? 'modified' : 'added' };
}

/** The newest of the server versions the record knows of. */
function newestServer(record: EntityRecord, current: SyncDocument): SyncDocument {
  return record.newer && record.newer.revision > current.revision ? record.newer : current;
}

/**
 * Resolves a `revision` conflict field by field: the server's current version becomes the base;
 * each touched field keeps the local value (`mine`, re-sent on the new base revision) or takes the
 * server's (`theirs`). All `theirs` is Accept Theirs, all `mine` is Keep Mine.
 */
export function resolveRevisionConflict(record: EntityRecord, choose: (field: string) => FieldChoice): void {
  const current = newestServer(record, record.conflict?.current ?? (record.server as SyncDocument));
  const kept = record.touched.filter((field) => choose(field) === 'mine');
  record.local = current.deletedAt === undefined ? overlayTouched(record, current, kept) : undefined;
  record.server = current;
  record.touched = kept.filter((field) => !deepEqual(record.local?.[field], current[field]));
  record.conflict = undefined;
  record.newer = undefined;
  record.seq += 1;
}

/**
 * Disjoint edits (the server touched none of this client's fields since the base): the server's
 * current version becomes the base and the touched fields stay on top, to be re-pushed on its revision.
 */
export function rebaseOnServer(record: EntityRecord, current: SyncDocument): void {
  record.local = overlayTouched(record, current, record.touched);
  record.server = current;
  record.touched = record.touched.filter((field) => !deepEqual(record.local?.[field], current[field]));
  if (record.newer && record.newer.revision <= current.revision) record.newer = undefined;
}

/**
 * Remembers the fields an insert sends (see `EntityRecord.sentInserts`; the last few distinct ones);
 * answers whether they were new, so the record needs saving before the insert leaves.
 */
export function rememberSentInsert(record: EntityRecord): boolean {
  const sent = record.local ?? {};
  const earlier = record.sentInserts ?? [];
  if (earlier.some((fields) => deepEqual(fields, sent))) return false;
  record.sentInserts = [...earlier, sent].slice(-SENT_INSERTS_KEPT);
  return true;
}

const SENT_INSERTS_KEPT = 8;

/** A permission name as the server stores it in an access rule: a plain name is the project's. */
function scopedPermission(projectId: string, permission: string): string {
  return permission.includes('::') ? permission : `${projectId}::${permission}`;
}

/** Sent fields as the server stores them: permission names in access fields scoped to the project. */
function asStored(projectId: string, typeId: string, fields: Record<string, unknown>): Record<string, unknown> {
  const stored = { ...fields };
  for (const name of typeId === 'types' ? ['access', 'defaultAccess'] : ['access']) {
    const access = stored[name];
    if (!access || typeof access !== 'object' || Array.isArray(access)) continue;
    stored[name] = Object.fromEntries(
      Object.entries(access).map(([operation, rule]) => {
        if (!rule || typeof rule !== 'object' || typeof (rule as { permission?: unknown }).permission !== 'string') return [operation, rule];
        return [operation, { ...rule, permission: scopedPermission(projectId, (rule as { permission: string }).permission) }];
      }),
    );
  }
  return stored;
}

/**
 * Whether an entity's creation (its fields at revision 0) is one of the inserts this client sent
 * for the record (`sentInserts`, or the current local fields): only then is a `DATA_DUPLICATE_ID`
 * its own earlier insert whose answer was lost. Fields only the server sets may be added.
 */
export function isOwnCreation(record: EntityRecord, created: Record<string, unknown>, scope: { projectId: string; typeId: string }): boolean {
  const candidates = [...(record.sentInserts ?? []), ...(record.local ? [record.local] : [])];
  return candidates.some((sent) => {
    const creation = fieldsOf(created);
    for (const field of SERVER_SET_FIELDS) if (!(field in sent)) delete creation[field];
    return deepEqual(asStored(scope.projectId, scope.typeId, fieldsOf(sent)), creation);
  });
}

/** Drops local changes: the record becomes the server's latest known version. */
export function discardLocalChanges(record: EntityRecord): void {
  const latest = record.conflict?.current ?? record.server;
  const server = latest ? newestServer(record, latest) : undefined;
  record.conflict = undefined;
  record.newer = undefined;
  record.sentInserts = undefined;
  record.seq += 1;
  if (server) takeServer(record, server);
  else {
    record.local = undefined;
    record.touched = [];
    record.deleted = false;
  }
}
