import type { DocumentEvent } from '@platform/contracts';
import type { DataDeps } from '@platform/documents';
import type { Clock, Mailer, TraceContext } from '@platform/kit';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { ActionsConfig } from '../config';
import { runErrorCodes } from '../errors';
import type { TriggerName } from '../domain/action-schema';
import type { NetworkPolicy } from '../domain/network-policy';
import type { ActionSocket } from '../domain/sockets';
import type { ActionChainBudget } from '../executor/chain-budget';
import type { DocumentRef } from '../executor/run-store';

/** What blocks may use: the ports of the process, handed over by the executor. */
export interface BlockServices {
  mailer: Mailer;
  data: DataDeps;
  config: ActionsConfig;
  clock: Clock;
  /** The HTTP connection pool for webhooks; it checks every resolved address against `policy`. */
  http: Dispatcher;
  policy: NetworkPolicy;
  /** What each write of a chain of actions takes from (update-database). */
  chainBudget: ActionChainBudget;
}

/** The run a block is part of: the event, the action's owner, the chain depth, its inputs. */
export interface BlockRunContext {
  projectId: string;
  actionId: string;
  /** The run's record id and the block's id: together, what a webhook names its delivery by. */
  runId: string;
  blockId: string;
  ownerId: string;
  triggerName: TriggerName;
  event: DocumentEvent;
  /** How many action writes led to this event (0 for a write by a person). */
  depth: number;
  /** The chain the run belongs to: the id of the event a person's write started it with (a run by hand: its own id). */
  chain: string;
  /** Values that arrived on the block's IN sockets, by socket name. */
  inputs: Record<string, unknown>;
  /** Revisions this run wrote, by `collection/id`, so later blocks build on them. */
  revisions: Map<string, number>;
  services: BlockServices;
  /** The block's span (in the run's trace), which its writes join; absent outside a recorded trace. */
  traceContext?: TraceContext;
  /** Aborted once the run's time budget (ActionsConfig.runTimeBudgetMs) is spent: a block that waits (a webhook's calls and retries) stops. */
  timeBudget: AbortSignal;
}

export interface BlockOutcome {
  /** Values for the block's OUT sockets; an output that is absent carries nothing onward. */
  outputs: Record<string, unknown>;
  /** What the run record keeps: small and free of document contents (see docs/actions.md). */
  summary: Record<string, unknown>;
  /** Documents the block read or wrote besides the triggering one; their readers alone see its result. */
  documents?: DocumentRef[];
}

/**
 * A registered block: its sockets, its configuration schema and how it runs. An IN socket and a
 * configuration field of the same name are one setting: a value arriving on the socket wins.
 */
export interface BlockDefinition<C = Record<string, unknown>> {
  name: string;
  description: string;
  sockets: ActionSocket[];
  configuration: z.ZodType<C>;
  /** Settings that must come from the configuration or from a connection into the socket of that name. */
  requiredInputs: string[];
  run(configuration: C, context: BlockRunContext): Promise<BlockOutcome>;
}

/** Configuration and inputs merged: socket values override configured ones. */
export function settings<C extends object>(configuration: C, inputs: Record<string, unknown>): C & Record<string, unknown> {
  return { ...configuration, ...Object.fromEntries(Object.entries(inputs).filter(([, value]) => value !== undefined)) };
}

/** An error a block reports with a stable code, recorded in the run result. */
export class BlockError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Documents the message speaks of besides the triggering one (see BlockOutcome.documents). */
    readonly documents: DocumentRef[] = [],
  ) {
    super(message);
    this.name = 'BlockError';
  }
}

/** What a block records that the run's time budget cut short or left no time for. */
export function runTimeBudgetError(budgetMs: number): BlockError {
  return new BlockError(runErrorCodes.runTimeBudget, `Not finished: the run's time budget of ${budgetMs} ms (all its blocks together) was spent; a webhook that hangs or is tried again takes the most`);
}

/** The trigger's data payload (spec Events 1: `{ triggerName, data }`); see docs/actions.md. */
export function eventData(context: Pick<BlockRunContext, 'event'>) {
  const { event } = context;
  return { projectId: event.projectId, typeId: event.typeId, documentId: event.entityId, revision: event.revision, document: event.entity, change: event.change };
}
