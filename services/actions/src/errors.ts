import { errorCatalogue } from '@platform/kit';

/** The actions service's errors; codes are stable, clients may switch on them. */
export const actionsError = errorCatalogue({
  ACTIONS_NOT_FOUND: [404, 'Action not found'],
  ACTIONS_RUN_NOT_FOUND: [404, 'Run not found'],
  ACTIONS_FORBIDDEN: [403, 'You may not do this to this action'],
  ACTIONS_NOT_OWNER: [403, 'Only the action\'s owner (who saved it last) may run it by hand: save it to make it yours, then run it'],
  ACTIONS_DOCUMENT_NOT_FOUND: [404, 'Document not found'],
  ACTIONS_CONFLICT: [409, 'The action changed while it was being saved; reload it and retry'],
  ACTIONS_TOO_MANY: [409, 'The project holds as many actions as it may (ACTIONS_MAX_PER_PROJECT)'],
  ACTIONS_DUPLICATE_ID: [400, 'Two triggers or two blocks share an id'],
  ACTIONS_UNKNOWN_BLOCK: [400, 'A block names no registered block'],
  ACTIONS_INVALID_CONFIGURATION: [400, "A block's configuration does not match its block"],
  ACTIONS_MISSING_INPUT: [400, 'A block needs a value it neither has in its configuration nor receives through a connection'],
  ACTIONS_INVALID_CONNECTION: [400, 'A connection names a block or socket that does not exist or points the wrong way'],
  ACTIONS_INCOMPATIBLE_SOCKETS: [400, 'A connection joins sockets of incompatible types'],
  ACTIONS_CYCLE: [400, 'The connections form a cycle'],
  ACTIONS_WEBHOOK_ADDRESS_REFUSED: [400, 'A webhook URL names an address webhooks may not reach'],
  ACTIONS_TOO_LARGE: [400, 'The action is larger than an action may be'],
  ACTIONS_TOO_MANY_MANUAL_RUNS_PER_PROJECT: [429, 'As many runs by hand as a project may have at once are under way in this project; try again after Retry-After'],
  ACTIONS_TOO_MANY_MANUAL_RUNS: [429, 'As many runs by hand as this server takes at once are under way; try again after Retry-After'],
});

export type ActionsErrorCode = Parameters<typeof actionsError>[0];

/** Codes recorded in run results (never HTTP answers): why a block or a run failed. */
export const runErrorCodes = {
  blockFailed: 'ACTIONS_BLOCK_FAILED',
  loopLimit: 'ACTIONS_LOOP_LIMIT',
  chainLimit: 'ACTIONS_CHAIN_LIMIT',
  interrupted: 'ACTIONS_RUN_INTERRUPTED',
  webhookRefused: 'ACTIONS_WEBHOOK_ADDRESS_REFUSED',
  webhookTimeout: 'ACTIONS_WEBHOOK_TIMEOUT',
  templateTooLarge: 'ACTIONS_TEMPLATE_TOO_LARGE',
  runTimeBudget: 'ACTIONS_RUN_TIME_BUDGET',
} as const;

/** What a run cut off by its process stopping records: it is never repeated. */
export const RUN_INTERRUPTED = { code: runErrorCodes.interrupted, message: 'The process stopped during this run; it is not repeated, so that no block runs twice' };
