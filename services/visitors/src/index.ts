export { createVisitorsService, visitorsService } from './app';
export { loadVisitorsConfig, type VisitorsConfig } from './config';
export { visitorsDeps } from './visitors-deps';
export { RETENTION_USER_ID, type RetentionResult } from './retention/retention-job';
