import { documentError, type DataDeps, type EntityScope } from '@platform/documents';
import { AppError } from '@platform/kit';
import type { DeletionPeriod } from '@platform/widgets';
import type { ProjectCheckIns } from '../check-in/check-in-directory';
import { typeIdOfCollection } from '../domain/collection-name';
import { visitorsError } from '../errors';
import { recordScope } from '../visitors/visitor-records';
import type { VisitorCaller } from './access';
import type { VisitorsDeps } from './context';

/** A type record as the data service stores it (schema, defaultAccess and the rest). */
export type TypeRecord = Awaited<ReturnType<DataDeps['types']['require']>>;

export interface VisitorCollection {
  scope: EntityScope;
  type: TypeRecord;
  periods: DeletionPeriod[];
}

export interface EventCollection {
  scope: EntityScope;
  type: TypeRecord;
  /** The visitor collections whose CheckIn widgets name this event type. */
  visitorScopes: EntityScope[];
  /** Those of `visitorScopes` whose type is `localOnly`: an event, which updates its visitor, is refused for their visitors. */
  localOnlyVisitorCollections: ReadonlySet<string>;
}

/** 409 DATA_LOCAL_ONLY_TYPE, as the data routes answer a write to a `localOnly` type's documents. */
export function refuseLocalOnly(type: TypeRecord): void {
  if (type.syncType === 'localOnly') throw documentError('DATA_LOCAL_ONLY_TYPE');
}

function invalid(collectionName: string, expected: string): AppError {
  return visitorsError('VISITORS_INVALID_COLLECTION', {
    message: `Invalid collectionName: ${collectionName} is not ${expected} of this project`,
    details: { field: 'collectionName', expected: `tenant-{projectId}-{typeId} of a type a CheckIn widget names as ${expected === 'a visitor type' ? 'visitorTypeId' : 'visitorEventTypeId'}` },
  });
}

/**
 * The type, if it exists and the caller may see it: a member is held to the type's `read` rule, as
 * on the data routes (a type it excludes is as unknown as one that does not exist); a public caller
 * (a kiosk, a secret holder) is not a member any rule could name, and is judged by the binding and
 * the visitor's secret instead.
 */
async function existingType(deps: VisitorsDeps, who: VisitorCaller, projectId: string, typeId: string): Promise<TypeRecord | null> {
  try {
    return who.kind === 'member' ? await deps.data.types.requireReadable(projectId, typeId, who.caller) : await deps.data.types.require(projectId, typeId);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}

/**
 * The visitor collection a `collectionName` names: a type of the project that a CheckIn widget names
 * as its visitor type. `deletionPeriod`, when the request chooses one, must be among the periods
 * the answer offers, unless a fresh read of the widgets does not offer it either. `writes`: the
 * request would write a record, which a `localOnly` type refuses (409), as the data routes do.
 */
export async function resolveVisitorCollection(
  deps: VisitorsDeps,
  who: VisitorCaller,
  projectId: string,
  collectionName: string,
  { deletionPeriod, writes }: { deletionPeriod?: number | undefined; writes: boolean },
): Promise<VisitorCollection> {
  const typeId = typeIdOfCollection(projectId, collectionName);
  const covers = (setup: ProjectCheckIns) => {
    const periods = typeId === null ? undefined : setup.visitorTypes.get(typeId)?.periods;
    return periods !== undefined && (deletionPeriod === undefined || periods.some((period) => period.duration === deletionPeriod));
  };
  const binding = typeId === null ? undefined : (await deps.checkIns.forProject(projectId, covers)).visitorTypes.get(typeId);
  const type = typeId === null || !binding ? null : await existingType(deps, who, projectId, typeId);
  if (typeId === null || !binding || !type) throw invalid(collectionName, 'a visitor type');
  if (writes) refuseLocalOnly(type);
  return { scope: recordScope(projectId, typeId), type, periods: binding.periods };
}

/**
 * The event collection a `collectionName` names: a type a CheckIn widget names as its visitor-event
 * type. For a member, only the visitor types whose `read` rule admits them (a visitor of another is
 * not found). An event is a write: a `localOnly` event type is refused (409).
 */
export async function resolveEventCollection(deps: VisitorsDeps, who: VisitorCaller, projectId: string, collectionName: string): Promise<EventCollection> {
  const typeId = typeIdOfCollection(projectId, collectionName);
  const owners = typeId === null ? undefined : (await deps.checkIns.forProject(projectId, (setup) => setup.eventTypes.has(typeId))).eventTypes.get(typeId);
  const type = typeId === null || !owners ? null : await existingType(deps, who, projectId, typeId);
  if (typeId === null || !owners || !type) throw invalid(collectionName, 'a visitor-event type');
  refuseLocalOnly(type);
  const ownerTypes = await Promise.all(owners.map(async (owner) => ({ owner, type: await existingType(deps, who, projectId, owner) })));
  const visible = ownerTypes.filter((entry): entry is { owner: string; type: TypeRecord } => entry.type !== null);
  return {
    scope: recordScope(projectId, typeId),
    type,
    visitorScopes: visible.map(({ owner }) => recordScope(projectId, owner)),
    localOnlyVisitorCollections: new Set(visible.filter((entry) => entry.type.syncType === 'localOnly').map(({ owner }) => recordScope(projectId, owner).collection)),
  };
}
