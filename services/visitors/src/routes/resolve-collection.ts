import type { DataDeps, EntityScope } from '@platform/documents';
import { AppError } from '@platform/kit';
import type { DeletionPeriod } from '@platform/widgets';
import type { ProjectCheckIns } from '../check-in/check-in-directory';
import { typeIdOfCollection } from '../domain/collection-name';
import { visitorsError } from '../errors';
import { recordScope } from '../visitors/visitor-records';
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
}

function invalid(collectionName: string, expected: string): AppError {
  return visitorsError('VISITORS_INVALID_COLLECTION', {
    message: `Invalid collectionName: ${collectionName} is not ${expected} of this project`,
    details: { field: 'collectionName', expected: `tenant-{projectId}-{typeId} of a type a CheckIn widget names as ${expected === 'a visitor type' ? 'visitorTypeId' : 'visitorEventTypeId'}` },
  });
}

async function existingType(deps: VisitorsDeps, projectId: string, typeId: string): Promise<TypeRecord | null> {
  try {
    return await deps.data.types.require(projectId, typeId);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}

/**
 * The visitor collection a `collectionName` names: a type of the project that a CheckIn widget names
 * as its visitor type. `deletionPeriod`, when the request chooses one, must be among the periods
 * the answer offers, unless a fresh read of the widgets does not offer it either.
 */
export async function resolveVisitorCollection(deps: VisitorsDeps, projectId: string, collectionName: string, deletionPeriod?: number): Promise<VisitorCollection> {
  const typeId = typeIdOfCollection(projectId, collectionName);
  const covers = (setup: ProjectCheckIns) => {
    const periods = typeId === null ? undefined : setup.visitorTypes.get(typeId)?.periods;
    return periods !== undefined && (deletionPeriod === undefined || periods.some((period) => period.duration === deletionPeriod));
  };
  const binding = typeId === null ? undefined : (await deps.checkIns.forProject(projectId, covers)).visitorTypes.get(typeId);
  const type = typeId === null || !binding ? null : await existingType(deps, projectId, typeId);
  if (typeId === null || !binding || !type) throw invalid(collectionName, 'a visitor type');
  return { scope: recordScope(projectId, typeId), type, periods: binding.periods };
}

/** The event collection a `collectionName` names: a type a CheckIn widget names as its visitor-event type. */
export async function resolveEventCollection(deps: VisitorsDeps, projectId: string, collectionName: string): Promise<EventCollection> {
  const typeId = typeIdOfCollection(projectId, collectionName);
  const owners = typeId === null ? undefined : (await deps.checkIns.forProject(projectId, (setup) => setup.eventTypes.has(typeId))).eventTypes.get(typeId);
  const type = typeId === null || !owners ? null : await existingType(deps, projectId, typeId);
  if (typeId === null || !owners || !type) throw invalid(collectionName, 'a visitor-event type');
  return { scope: recordScope(projectId, typeId), type, visitorScopes: owners.map((owner) => recordScope(projectId, owner)) };
}
