export * from './port';
export { assertSupportedModifier, modifiedPaths, pathsOverlap, SUPPORTED_OPERATORS } from './modifier';
export { applyUpdate } from './apply-update';
export { guardedUpdate, type GuardedUpdateRequest, type GuardedUpdateResult } from './guarded-update';
export { createEmbeddedStore, isEmbeddedStore, type EmbeddedDocumentStore, type EmbeddedStoreOptions, type EmbeddedStoreStats } from './embedded/embedded-store';
export { CorruptLogError } from './embedded/append-log';
export { requestBackup } from './embedded/control-socket';
export { createMongoStore, type MongoStoreOptions } from './mongodb/mongo-store';
export { openDocumentStore } from './open-store';
