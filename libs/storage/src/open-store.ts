import { createEmbeddedStore } from './embedded/embedded-store';
import type { LogReporter } from './embedded/log-reporter';
import { createMongoStore } from './mongodb/mongo-store';
import type { DocumentStore } from './port';

/**
 * MongoDB when a URL is configured, otherwise the embedded store under `dataDir`, answering backup
 * requests on its control socket and reporting its log's trouble to `logger`.
 */
export function openDocumentStore(options: { mongoUrl?: string; mongoDatabase?: string; dataDir: string; logger?: LogReporter }): Promise<DocumentStore> {
  if (options.mongoUrl) return createMongoStore({ url: options.mongoUrl, database: options.mongoDatabase ?? 'platform' });
  return createEmbeddedStore({ dataDir: options.dataDir, controlSocket: true, logger: options.logger });
}
