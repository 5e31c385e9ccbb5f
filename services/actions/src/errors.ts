import { errorCatalogue } from '@platform/kit';

/** The actions service's errors; codes are stable, clients may switch on them. */
export const actionsError = errorCatalogue({
  ACTIONS_NOT_FOUND: [404, 'Action not found'],
  ACTIONS_FORBIDDEN: [403, 'You may not do this to this action'],
  ACTIONS_CONFLICT: [409, 'The action changed while it was being saved; reload it and retry'],
  ACTIONS_DUPLICATE_ID: [400, 'Two triggers or two blocks share an id'],
  ACTIONS_UNKNOWN_BLOCK: [400, 'A block names no registered block'],
  ACTIONS_INVALID_CONFIGURATION: [400, "A block's configuration does not match its block"],
  ACTIONS_MISSING_INPUT: [400, 'A block needs a value it neither has in its configuration nor receives through a connection'],
  ACTIONS_INVALID_CONNECTION: [400, 'A connection names a block or socket that does not exist or points the wrong way'],
  ACTIONS_INCOMPATIBLE_SOCKETS: [400, 'A connection joins sockets of incompatible types'],
  ACTIONS_CYCLE: [400, 'The connections form a cycle'],
  ACTIONS_WEBHOOK_ADDRESS_REFUSED: [400, 'A webhook URL names an address webhooks may not reach'],
});

export type ActionsErrorCode = Parameters<typeof actionsError>[0];

/** Codes recorded in run results (never HTTP answers): why a block or a run failed. */
export const runErrorCodes = {
  blockFailed: 'ACTIONS_BLOCK_FAILED',
  loopLimit: 'ACTIONS_LOOP_LIMIT',
  interrupted: 'ACTIONS_RUN_INTERRUPTED',
  webhookRefused: 'ACTIONS_WEBHOOK_ADDRESS_REFUSED',
  webhookTimeout: 'ACTIONS_WEBHOOK_TIMEOUT',
} as const;
