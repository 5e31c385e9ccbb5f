export { actionsService, createActionsService } from './app';
export type { ActionsConfig } from './config';
export { verifyWebhookSignature, projectWebhookKey, PROJECT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './domain/webhook-signature';
