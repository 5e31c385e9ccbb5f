export * from './principal';
export * from './session';
export * from './errors';
export * from './health';
export * from './services';
export * from './access';
export * from './document-events';
export * from './tenants';
export { installValidationMessages } from './validation-messages';
