import { installValidationMessages } from '@platform/contracts';

// Every process that serves the API loads the kit: its schemas answer in the platform's words from the start.
installValidationMessages();

export { addressLimitKey } from './address-limit-key';
export { isHealthProbePath } from './health-probe';
export { API_DOCS_PREFIX } from './api-docs';
export { createApp, type AppOptions } from './app';
export { requestTraceContext } from './request-telemetry';
export type { TraceContext } from '@platform/telemetry';
export { parseEnv, ConfigError, commaList, booleanFlag } from './config';
export { numberText } from './number-text';
export { defaultHttpTimeouts, httpTimeoutsEnvSchema, httpTimeoutsFrom, type HttpTimeouts } from './http-timeouts';
export { AppError, errorCatalogue, registerErrorHandling } from './errors';
export { trustProxySetting, type TrustProxy } from './trust-proxy';
export { MAX_JSON_DEPTH } from './json-limits';
export { HealthMonitor } from './health-monitor';
export { ClusterSchedule, type ClusterScheduleOptions, type TickOutcome } from './cluster-schedule';
export { EventOutbox, type OutboxMessage } from './event-outbox';
export { runMigrationOnce, type MigrationName } from './migration-once';
export { createLogger, type Logger } from './logger';
export { erasePurgedProjects, type ErasedCounts } from './project-purge-consumer';
export { decoratePrincipal, requireUser, trustSignedPrincipal, userGuard } from './principal-hooks';
export { acceptedSecrets, macMatches, PRINCIPAL_HEADER, signPrincipal, verifyPrincipal, type VerifyingSecrets } from './principal-signature';
export type { Clock, ServiceContext, ServiceDefinition } from './service';
export { rlsAllows, rlsFilter, standingDigest, type ProjectCaller } from './rls';
export { findLiveProject, ProjectAccess, projectNotFound, type ProjectContext, type ProjectRecord } from './project-access';
export { ACCESS_CHANGED_ALL_SUBJECT, ACCESS_CHANGED_PROJECT_FILTER, AccessChanges, sharedProjectAccess, type AccessChange } from './access-changes';
export { createLogMailer, createSmtpMailer, type Mailer, type MailMessage } from './mailer';
export { mailFromProblem } from './mail-from';
export { sessionCredential, sessionToken } from './session-token';
export { hashToken } from './token-hash';
