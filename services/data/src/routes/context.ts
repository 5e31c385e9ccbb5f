import type { EventBus } from '@platform/bus';
import type { Logger, ProjectAccess } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { DataLimits } from '../config';
import type { EntityReader } from '../entities/entity-reader';
import type { EntityWriter } from '../entities/entity-writer';
import type { History } from '../entities/history';
import type { OutboxDrainer } from '../entities/outbox';
import type { TypeDirectory } from '../entities/type-directory';

/** What the data routes share: one instance of each per service. */
export interface DataDeps {
  store: DocumentStore;
  bus: EventBus;
  logger: Logger;
  clock: () => number;
  projects: ProjectAccess;
  types: TypeDirectory;
  reader: EntityReader;
  writer: EntityWriter;
  history: History;
  drainer: OutboxDrainer;
  /** Document size, array length, validation time and sample-data bounds (from the environment). */
  limits: DataLimits;
}
