export { actionsService, createActionsService } from './app';
export type { ActionsConfig } from './config';
export { verifyWebhookSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './domain/webhook-signature';
