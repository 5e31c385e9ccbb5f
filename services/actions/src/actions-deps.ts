import { dataDeps, type DataDeps } from '@platform/documents';
import { EventOutbox, type Logger, type ProjectAccess, type ServiceContext } from '@platform/kit';
import type { Dispatcher } from 'undici';
import { createGuardedAgent } from './blocks/guarded-http';
import { blockRegistry } from './blocks/registry';
import type { ActionsConfig } from './config';
import { NetworkPolicy } from './domain/network-policy';
import { ACTION_CHANGES_OUTBOX_COLLECTION } from './executor/action-changes';
import { ActionRepository } from './executor/action-repository';
import { ActionChainBudget } from './executor/chain-budget';
import { Executor } from './executor/executor';
import { RunStore } from './executor/run-store';
import { RunVisibility } from './executor/run-visibility';

/** What the actions routes and the executor share: one instance of each per service context. */
export interface ActionsDeps {
  logger: Logger;
  clock: () => number;
  config: ActionsConfig;
  projects: ProjectAccess;
  actions: ActionRepository;
  /** Every save of an action, for the audit trail (executor/action-changes.ts). */
  actionChanges: EventOutbox;
  runs: RunStore;
  runVisibility: RunVisibility;
  executor: Executor;
  /** The document domain, shared with the executor's blocks: what a run by hand reads its document through. */
  data: DataDeps;
  http: Dispatcher;
  policy: NetworkPolicy;
}

export function createActionsDeps(context: ServiceContext, config: ActionsConfig): ActionsDeps {
  const { store, logger, clock } = context;
  const actions = new ActionRepository(store);
  const runs = new RunStore(store);
  const projects = context.projectAccess;
  const policy = new NetworkPolicy(config.webhookAllowedNetworks);
  const http = createGuardedAgent(policy);
  const data = dataDeps(context);
  const executor = new Executor({
    actions,
    runs,
    projects,
    registry: blockRegistry,
    logger,
    maxDepth: config.maxDepth,
    runLeaseMs: config.runLeaseMs,
    manualRunLimits: config.manualRunLimits,
    services: { mailer: context.mailer, data, config, clock, http, policy, chainBudget: new ActionChainBudget(context.kv, config.maxChainWrites) },
  });
  const actionChanges = new EventOutbox({ store, bus: context.bus, clock, logger }, ACTION_CHANGES_OUTBOX_COLLECTION);
  return { logger, clock, config, projects, actions, actionChanges, runs, runVisibility: new RunVisibility(store, projects.types), executor, data, http, policy };
}
