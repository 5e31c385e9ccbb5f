import { randomUUID } from 'node:crypto';
import type { EventBus } from '@platform/bus';
import type { Collection, DocumentStore } from '@platform/storage';
import { eventOutboxWaiting } from '@platform/telemetry';
import type { Clock } from './service';
import type { Logger } from './logger';

/** Older than this, a message still waiting was not published by the request that made it (the bus was down, the process stopped). */
const SWEEP_AGE_MS = 10_000;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

/** One event to publish: where, under which de-duplication id, and what. */
export interface OutboxMessage {
  subject: string;
  msgId: string;
  data: Record<string, unknown>;
}

interface WaitingMessage extends OutboxMessage {
  [field: string]: unknown;
  id: string;
  /** When it was written (Unix ms): the sweep takes only messages older than its request could still be publishing. */
  writtenAt: number;
}

/**
 * Events about changes a service has just stored, published at least once. Each message is
 * written to the service's outbox collection right after its change and then published; one the
 * bus did not take stays there, and a sweep on every replica publishes it later (its message id
 * makes a second publish a no-op on the bus, and consumers are idempotent past the bus's window).
 * So a change made while NATS is down is announced once it is back; only a process that stops
 * between the change's write and the outbox's loses one (on the in-process bus a message stays
 * until its consumers have handled it, see `send`). For changes that are not documents
 * (which carry their own outbox, libs/documents).
 */
export class EventOutbox {
  private readonly waiting: Collection<WaitingMessage>;
  private timer: NodeJS.Timeout | undefined;
  /** Messages the in-process bus holds until their consumers have handled them, by outbox id. */
  private readonly awaitingConsumers = new Set<string>();

  constructor(
    private readonly deps: { store: DocumentStore; bus: EventBus; clock: Clock; logger: Logger },
    private readonly collection: string,
  ) {
    this.waiting = deps.store.collection<WaitingMessage>(collection);
  }

  async ensureIndexes(): Promise<void> {
    await this.waiting.ensureIndex({ keys: { writtenAt: 1 } });
  }

  /** Writes the messages to the outbox and publishes them; never throws, as their change is made already. */
  async publish(messages: OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const writtenAt = this.deps.clock();
    const written: WaitingMessage[] = messages.map((message) => ({ ...message, id: randomUUID(), writtenAt }));
    try {
      await this.waiting.insertMany(written);
    } catch (error) {
      // Publishing without the outbox's second chance beats not at all.
      this.deps.logger.error({ err: error, outbox: this.collection }, 'events not written to the outbox; publishing them once');
    }
    await this.send(written);
  }

  /** Publishes what the requests left behind; answers how many messages were waiting. */
  async sweep(): Promise<number> {
    const due = await this.waiting.find({ writtenAt: { $lte: this.deps.clock() - SWEEP_AGE_MS } }, { sort: { writtenAt: 1, id: 1 }, limit: SWEEP_BATCH });
    await this.send(due);
    eventOutboxWaiting.set({ outbox: this.collection }, await this.waiting.count());
    return due.length;
  }

  /**
   * Drops the waiting messages of a purged project (`data.projectId`): published after its erasure,
   * they would put its changes back where the erasure removed them (the audit trail). Answers how many.
   */
  async eraseProject(projectId: string): Promise<number> {
    return this.waiting.deleteMany({ 'data.projectId': projectId });
  }

  start(everyMs = SWEEP_EVERY_MS): void {
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.deps.logger.warn({ err: error, outbox: this.collection }, 'outbox sweep failed; trying again'));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * In order; the first the bus refuses stops the rest, which wait for the sweep. A message goes
   * from the outbox once the bus keeps it (JetStream's stream), or, on the in-process bus, which
   * keeps it only in memory, once its consumers have handled it: a process stopped before then
   * sends it again at its next start instead of losing it.
   */
  private async send(messages: WaitingMessage[]): Promise<void> {
    for (const { id, subject, msgId, data } of messages) {
      // Published already, its consumers still at it: the sweep leaves it to them.
      if (this.awaitingConsumers.has(id)) continue;
      let handled: Promise<void> | undefined;
      try {
        ({ handled } = await this.deps.bus.publish(subject, data, { msgId }));
      } catch (error) {
        this.deps.logger.warn({ err: error, outbox: this.collection, waiting: messages.length }, 'events not published yet; the outbox sweep sends them');
        return;
      }
      if (!handled) {
        await this.remove(id);
        continue;
      }
      this.awaitingConsumers.add(id);
      void handled.then(() => this.remove(id)).finally(() => this.awaitingConsumers.delete(id));
    }
  }

  /** Left behind, it is only published once more: the bus and the consumers drop the repeat. */
  private async remove(id: string): Promise<void> {
    await this.waiting.deleteMany({ id }).catch((error: unknown) => this.deps.logger.warn({ err: error, outbox: this.collection }, 'a published event stays in the outbox'));
  }
}
