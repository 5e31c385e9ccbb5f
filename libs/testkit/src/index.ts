export { describeWithBackend, describeWithBackends, describeWithOwnServer } from './describe-with-backend';
export * from './servers';
export type { BackendKind, BackendReport } from './backends';
