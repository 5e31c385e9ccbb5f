export { createIdentityService, identityService } from './app';
export { loadIdentityConfig, type IdentityConfig } from './config';
