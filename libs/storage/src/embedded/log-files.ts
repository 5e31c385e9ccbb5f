/** The embedded store's durable log and directory lock, shared with the embedded key-value store (libs/kv). */
export { AppendLog } from './append-log';
export { CorruptLogError, readLog } from './read-log';
export { lockDirectory } from './directory-lock';
export { ReadGate } from './read-gate';
export { stderrReporter, type LogReporter } from './log-reporter';
