import type { Subscription } from '@platform/bus';
import { documentEventSchema, type Access, type DocumentEvent } from '@platform/contracts';
import type { History } from '@platform/documents';
import type { ServiceContext, TraceContext } from '@platform/kit';
import type { Names } from '../trail/names';
import { trailEntryFor } from '../trail/trail-entries';
import type { TrailStore } from '../trail/trail-store';
import { startValidatedConsumer } from './validated-consumer';

/** The durable consumer's name: replicas of the audit service share it; a restart resumes it. */
export const AUDIT_CONSUMER = 'audit-trail';

/** Every document event of every project (documents of all types, types and applications). */
export const DOCUMENT_EVENTS_FILTER = 'platform.docs.>';

export interface TrailRecorder {
  trail: TrailStore;
  names: Names;
  history: History;
}

/**
 * The entity as it was right after the event's change. The event carries the entity as the
 * drain saw it, which is later than the change when several changes drained together; then the
 * state is replayed from history (the drain appends to history before it publishes).
 */
async function stateAfter(event: DocumentEvent, history: History): Promise<Record<string, unknown>> {
  if (event.entity.revision === event.revision) return event.entity;
  return history.stateAt(event.collection, event.entityId, event.revision);
}

/**
 * Records one document event; a redelivered event changes nothing. The access it brings is the
 * entity's access at the event's own revision, exactly what the rebuild replays, so both produce
 * the same items.
 */
export async function recordDocumentEvent(event: DocumentEvent, recorder: TrailRecorder, traceContext?: TraceContext): Promise<void> {
  const state = await stateAfter(event, recorder.history);
  const entry = await trailEntryFor({ ...event, state }, recorder.names);
  await recorder.trail.record(entry, { access: state.access as Access | undefined, revision: event.revision }, traceContext);
}

/** Subscribes the audit trail to document events; a failed store write makes the event come again. */
export async function startDocumentEventsConsumer(context: ServiceContext, recorder: TrailRecorder): Promise<Subscription> {
  return startValidatedConsumer(context, {
    durable: AUDIT_CONSUMER,
    filter: DOCUMENT_EVENTS_FILTER,
    schema: documentEventSchema,
    what: 'document event',
    handle: (event, message) => recordDocumentEvent(event, recorder, message.traceContext as TraceContext | undefined),
  });
}
