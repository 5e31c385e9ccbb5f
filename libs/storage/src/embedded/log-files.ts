/** The embedded store's durable log and directory lock, shared with the embedded key-value store (libs/kv). */
export { AppendLog, CorruptLogError, readLog } from './append-log';
export { lockDirectory } from './directory-lock';
export type { LogReporter } from './log-reporter';
