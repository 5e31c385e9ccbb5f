import { performance } from 'node:perf_hooks';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { documentEventId, type Access, type DocumentEvent } from '@platform/contracts';
import { RESERVED_TYPE_IDS } from '@platform/documents';
import { rlsAllows, type Logger, type ProjectAccess, type ProjectCaller } from '@platform/kit';
import { actionBlockRuns, actionRuns, inChildSpan, traceLogFields, type TraceContext } from '@platform/telemetry';
import type { BlockDefinition, BlockServices } from '../blocks/block';
import { BlockError, runTimeBudgetError } from '../blocks/block';
import type { StoredAction, TriggerName } from '../domain/action-schema';
import { topologicalOrder } from '../domain/graph';
import { valueFits } from '../domain/sockets';
import { RUN_INTERRUPTED, runErrorCodes } from '../errors';
import type { ActionRepository } from './action-repository';
import { ManualRunSlots, type ManualRunLimits } from './manual-run-slots';
import { ownerStanding } from './owner-standing';
import { manualRunId, RUN_LEASE_MS, runId, type ActionRun, type BlockResult, type BlockStatus, type DocumentRef, type RunStore } from './run-store';

const tracer = trace.getTracer('actions');

const TRIGGER_OF_KIND: Record<DocumentEvent['kind'], TriggerName> = { created: 'documentCreated', updated: 'documentUpdated', deleted: 'documentDeleted' };

/** Each document once, in first-seen order. */
function distinctDocuments(documents: DocumentRef[]): DocumentRef[] {
  return [...new Map(documents.map((document) => [`${document.typeId}/${document.documentId}`, document])).values()];
}

/** Thrown to put an event back on the bus: one of its runs is under way in another delivery, whose end it must wait for. */
export class RunUnderWayElsewhere extends Error {}

/** What a run knows of why it runs: its trigger, and where its event stands in a chain of action writes. */
interface RunTrigger {
  triggerName: TriggerName;
  depth: number;
  chain: string;
}

export interface ExecutorDeps {
  actions: ActionRepository;
  runs: RunStore;
  projects: ProjectAccess;
  registry: ReadonlyMap<string, BlockDefinition<any>>;
  services: BlockServices;
  logger: Logger;
  maxDepth: number;
  /** ACTIONS_RUN_LEASE_MS: a running run renews its lease every third of it. */
  runLeaseMs?: number;
  /** Runs by hand under way at once, per project and in the process. */
  manualRunLimits: ManualRunLimits;
}

/**
 * Runs the actions a document event triggers (spec Events 1): every live action of the project
 * with a matching trigger, one after another, oldest first; in each, blocks in topological order
 * of their connections, each awaited. A block's error is recorded and the next blocks and actions
 * still run. Each (event, action) pair runs at most once, whatever the bus redelivers.
 */
export class Executor {
  /** Runs by hand under way (startManualRun), which no redelivery would finish if the process stopped during them. */
  private readonly manualRuns = new Set<Promise<void>>();

  private readonly manualRunSlots: ManualRunSlots;

  private readonly leaseMs: number;

  constructor(private readonly deps: ExecutorDeps) {
    this.leaseMs = deps.runLeaseMs ?? RUN_LEASE_MS;
    this.manualRunSlots = new ManualRunSlots(deps.manualRunLimits);
  }

  /** `traceContext`: the delivery's consumer span, which each run's span joins. */
  async handle(event: DocumentEvent, traceContext?: TraceContext): Promise<void> {
    // The project's own collections (types, applications, AI agents) hold no documents to act on.
    if (RESERVED_TYPE_IDS.has(event.typeId)) return;
    const triggerName = TRIGGER_OF_KIND[event.kind];
    const candidates = await this.deps.actions.triggeredBy(event.projectId, triggerName);
    const matching = candidates.filter((action) =>
      action.triggers.some((trigger) => trigger.triggerName === triggerName && (trigger.configuration?.typeId === undefined || trigger.configuration.typeId === event.typeId)),
    );
    if (matching.length === 0) return;
    const eventId = documentEventId(event.collection, event.entityId, event.revision);
    // A write made by an action carries its depth and chain to its event; a person's write starts a chain.
    const depth = event.actionDepth ?? 0;
    const chain = event.actionChain ?? eventId;
    for (const head of matching) {
      const action = await this.deps.actions.whole(head);
      if (action) await this.runOnce(action, event, { eventId, triggerName, depth, chain }, traceContext);
    }
  }

  private async runOnce(action: StoredAction, event: DocumentEvent, trigger: RunTrigger & { eventId: string }, traceContext: TraceContext | undefined): Promise<void> {
    const owner = await this.ownerOf(action);
    // An action sees only documents its owner may read (by their own rule and their type's): it must not become a way around RLS.
    if (owner && !(rlsAllows(event.entity.access as Access | undefined, 'read', owner) && (await this.deps.projects.types.mayRead(event.projectId, event.typeId, owner)))) return;
    const run = this.newRun(action, event, { ...trigger, id: runId(trigger.eventId, action.id), changedAt: event.change.timestamp });
    if (!(await this.deps.runs.claim(run))) return this.settleExisting(run.id);
    await this.runInSpan(action, event, trigger, owner, run, traceContext);
  }

  /**
   * Runs `action` by hand for its owner `startedBy` on a document's latest change (its event built
   * again by latestChangeEvent): a run of its own, whatever the action's triggers, at depth 0 (a
   * person asked), the start of a chain of its own. Answers the run as it starts; its blocks run
   * after the answer, as a triggered run's do, and its record says how they went. The caller has checked that `startedBy` owns the
   * action and may read the document. Past the runs by hand a project or the process may have
   * under way at once, throws 429 and records nothing (ManualRunSlots).
   */
  async startManualRun(action: StoredAction, event: DocumentEvent, eventId: string, startedBy: string, traceContext?: TraceContext): Promise<ActionRun> {
    const release = this.manualRunSlots.take(action.projectId);
    const id = manualRunId();
    const trigger = { eventId, triggerName: TRIGGER_OF_KIND[event.kind], depth: 0, chain: id };
    const run = this.newRun(action, event, { ...trigger, id, startedBy });
    try {
      await this.deps.runs.claim(run);
    } catch (error) {
      release();
      throw error;
    }
    const started = structuredClone(run);
    const work = this.ownerOf(action)
      .then((owner) => this.runInSpan(action, event, trigger, owner, run, traceContext))
      .catch((error: unknown) => this.deps.logger.warn({ err: error, actionId: action.id, runId: run.id, ...traceLogFields(traceContext) }, 'a run by hand could not finish'))
      .finally(() => {
        release();
        this.manualRuns.delete(work);
      });
    this.manualRuns.add(work);
    return started;
  }

  /** Resolves once every run by hand under way has finished: the service waits for them before it stops. */
  async manualRunsSettled(): Promise<void> {
    await Promise.all(this.manualRuns);
  }

  private newRun(action: StoredAction, event: DocumentEvent, fields: { id: string; eventId: string; triggerName: TriggerName; depth: number; changedAt?: number; startedBy?: string }): ActionRun {
    return {
      id: fields.id,
      projectId: action.projectId,
      actionId: action.id,
      eventId: fields.eventId,
      triggerName: fields.triggerName,
      typeId: event.typeId,
      documentId: event.entityId,
      depth: fields.depth,
      ...(fields.startedBy === undefined ? {} : { startedBy: fields.startedBy }),
      status: 'running',
      ...(fields.changedAt === undefined ? {} : { changedAt: fields.changedAt }),
      startedAt: this.deps.services.clock(),
      blocks: [],
      blockDocumentsRecorded: true,
    };
  }

  /** Executes a claimed run in one span of the event's trace; its blocks' spans (and their webhook calls) go below it. */
  private async runInSpan(action: StoredAction, event: DocumentEvent, trigger: RunTrigger, owner: ProjectCaller | null, run: ActionRun, traceContext: TraceContext | undefined): Promise<void> {
    // While it runs, its lease is renewed: a redelivery (or the hourly job) takes a run whose lease
    // lapsed for one its process left behind, and must not mark this live one interrupted.
    const lease = setInterval(() => {
      this.deps.runs.renew(run.id, this.deps.services.clock()).catch((error: unknown) => this.deps.logger.warn({ err: error, runId: run.id }, 'the lease of a running action run could not be renewed'));
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    try {
      await this.runInSpanLeased(action, event, trigger, owner, run, traceContext);
    } finally {
      clearInterval(lease);
    }
  }

  private async runInSpanLeased(action: StoredAction, event: DocumentEvent, trigger: RunTrigger, owner: ProjectCaller | null, run: ActionRun, traceContext: TraceContext | undefined): Promise<void> {
    await inChildSpan(tracer, 'action run', { attributes: { 'platform.action.trigger': trigger.triggerName, 'platform.action.depth': trigger.depth } }, traceContext, async (runContext) => {
      await this.execute(action, event, trigger, owner, run, runContext);
      // The run's span; outside a recorded trace there is none, or the parent's, which records nothing.
      const span = runContext && trace.getSpan(runContext);
      span?.setAttribute('platform.action.status', run.status);
      if (run.status === 'failed') span?.setStatus({ code: SpanStatusCode.ERROR });
    });
  }

  private async execute(action: StoredAction, event: DocumentEvent, trigger: RunTrigger, owner: ProjectCaller | null, run: ActionRun, traceContext: TraceContext | undefined): Promise<void> {
    const started = performance.now();

    if (!owner) {
      run.error = { code: 'ACTIONS_OWNER_NOT_MEMBER', message: `The action's owner ${action.ownerId} is no longer a member of the project; save the action again to make you its owner` };
    } else if (trigger.depth >= this.deps.maxDepth) {
      run.error = {
        code: runErrorCodes.loopLimit,
        message: `Not run: this event comes from a chain of ${trigger.depth} writes made by actions (limit ${this.deps.maxDepth}); an action probably triggers itself`,
      };
    } else {
      const timeBudget = AbortSignal.timeout(this.deps.services.config.runTimeBudgetMs);
      run.blocks = await this.runBlocks(action, event, { ...trigger, ownerId: action.ownerId }, run.id, timeBudget, traceContext);
    }
    run.status = run.error || run.blocks.some((block) => block.status === 'failed') ? 'failed' : 'succeeded';
    run.finishedAt = this.deps.services.clock();
    run.durationMs = performance.now() - started;
    await this.deps.runs.complete(run);
    actionRuns.inc({ status: run.status });
  }

  /** `timeBudget`: aborted once the run's time budget is spent; the block under way stops waiting, and every later one fails. */
  private async runBlocks(action: StoredAction, event: DocumentEvent, trigger: RunTrigger & { ownerId: string }, runId: string, timeBudget: AbortSignal, traceContext: TraceContext | undefined): Promise<BlockResult[]> {
    const blocks = new Map(action.blocks.map((block) => [block.id, block]));
    const outputs = new Map<string, Record<string, unknown>>();
    const statuses = new Map<string, BlockStatus>();
    const revisions = new Map<string, number>();
    // The documents behind each block's result and outputs, passed on along connections.
    const provenance = new Map<string, DocumentRef[]>();
    const results: BlockResult[] = [];

    for (const id of topologicalOrder(action.blocks.map((block) => block.id), action.connections)) {
      const block = blocks.get(id) as StoredAction['blocks'][number];
      const definition = this.deps.registry.get(block.blockName);
      const startedAt = this.deps.services.clock();
      const started = performance.now();
      const incoming = action.connections.filter((connection) => connection.targetBlockId === id);
      const inherited = incoming.flatMap((connection) => provenance.get(connection.sourceBlockId) ?? []);
      const record = (status: BlockStatus, extra: Partial<BlockResult>, own: DocumentRef[] = []): void => {
        const documents = distinctDocuments([...inherited, ...own]);
        statuses.set(id, status);
        provenance.set(id, documents);
        actionBlockRuns.inc({ block: block.blockName, status });
        results.push({ blockId: id, blockName: block.blockName, status, startedAt, durationMs: performance.now() - started, ...extra, ...(documents.length ? { documents } : {}) });
      };

      const inputs: Record<string, unknown> = {};
      let reached = incoming.length === 0;
      for (const connection of incoming) {
        const sourceStatus = statuses.get(connection.sourceBlockId);
        // A failed block does not hold back what follows it (spec: errors do not stop later blocks).
        if (sourceStatus === 'failed') reached = true;
        const value = sourceStatus === 'succeeded' ? outputs.get(connection.sourceBlockId)?.[connection.sourceSocketName] : undefined;
        if (value === undefined) continue;
        reached = true;
        inputs[connection.targetSocketName] = value;
      }
      if (!reached) {
        record('skipped', { reason: 'Nothing reached it: every block feeding it was skipped or took the other branch' });
        continue;
      }
      if (timeBudget.aborted) {
        const { code, message } = runTimeBudgetError(this.deps.services.config.runTimeBudgetMs);
        record('failed', { error: { code, message } });
        continue;
      }
      if (!definition) {
        record('failed', { error: { code: 'ACTIONS_UNKNOWN_BLOCK', message: `"${block.blockName}" is not a registered block` } });
        continue;
      }
      const misfit = Object.entries(inputs).find(([name, value]) => {
        const socket = definition.sockets.find((candidate) => candidate.name === name && candidate.direction === 'IN');
        return socket !== undefined && !valueFits(socket.type, value);
      });
      if (misfit) {
        record('failed', { error: { code: 'ACTIONS_INPUT_TYPE', message: `Input "${misfit[0]}" received a value that is not a ${definition.sockets.find((s) => s.name === misfit[0])?.type}` } });
        continue;
      }
      try {
        const configuration = definition.configuration.parse(block.configuration ?? {});
        // A span per block under the run's (its webhook call and its writes inside it); a throw marks it failed and passes on.
        const outcome = await inChildSpan(tracer, `block ${block.blockName}`, { attributes: { 'platform.action.block': block.blockName } }, traceContext, (blockContext) =>
          definition.run(configuration, {
            projectId: action.projectId,
            actionId: action.id,
            runId,
            blockId: id,
            ownerId: trigger.ownerId,
            triggerName: trigger.triggerName,
            event,
            depth: trigger.depth,
            chain: trigger.chain,
            inputs,
            revisions,
            services: this.deps.services,
            traceContext: blockContext,
            timeBudget,
          }),
        );
        outputs.set(id, outcome.outputs);
        record('succeeded', { summary: outcome.summary }, outcome.documents);
      } catch (error) {
        const code = error instanceof BlockError ? error.code : runErrorCodes.blockFailed;
        if (!(error instanceof BlockError)) this.deps.logger.warn({ err: error, actionId: action.id, blockId: id, ...traceLogFields(traceContext) }, 'block failed unexpectedly');
        record('failed', { error: { code, message: (error as Error).message } }, error instanceof BlockError ? error.documents : []);
      }
    }
    return results;
  }

  /** The owner's standing in the project as a member (ownerStanding), or null when they are no longer one. */
  private ownerOf(action: StoredAction): Promise<ProjectCaller | null> {
    return ownerStanding(this.deps.projects, action.projectId, action.ownerId);
  }

  /**
   * A run exists already: done, still running elsewhere, or left behind by a stopped process. One
   * whose lease lapsed is marked interrupted and the event goes on to its next action. One still
   * running with a live lease (another delivery of the same event is at it, or a crashed process's
   * run whose lease has not lapsed yet) sends this delivery back to the bus (RunUnderWayElsewhere),
   * so the event's later actions never start before it ends (oldest first, each awaited), and the
   * slot is free meanwhile: after a crash, waiting here for the leases of every run the process left
   * held every executor slot, and so every project's actions, for up to a lease.
   */
  private async settleExisting(id: string): Promise<void> {
    const existing = await this.deps.runs.find(id);
    if (existing?.status !== 'running') return;
    const now = this.deps.services.clock();
    const cutoff = now - this.leaseMs;
    if ((existing.renewedAt ?? existing.startedAt) < cutoff && (await this.deps.runs.markInterrupted(id, cutoff, RUN_INTERRUPTED, now))) return;
    throw new RunUnderWayElsewhere(`run ${id} is under way in another delivery`);
  }
}
