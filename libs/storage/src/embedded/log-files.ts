/** The embedded store's durable log and directory lock, shared with the embedded key-value store (libs/kv). */
export { CollectionLog, CorruptLogError, readLog } from './collection-log';
export { lockDirectory } from './directory-lock';
