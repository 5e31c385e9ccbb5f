export { createApp, type AppOptions } from './app';
export { parseEnv, ConfigError, commaList, booleanFlag } from './config';
export { AppError, errorCatalogue, registerErrorHandling } from './errors';
export { HealthMonitor } from './health-monitor';
export { createLogger, type Logger } from './logger';
export { decoratePrincipal, requireUser, trustSignedPrincipal, userGuard } from './principal-hooks';
export { PRINCIPAL_HEADER, signPrincipal, verifyPrincipal } from './principal-signature';
export type { Clock, ServiceContext, ServiceDefinition } from './service';
