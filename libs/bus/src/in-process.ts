import type { BusMessage, EventBus, LiveMessage, PublishOptions, PublishResult, SubscribeOptions, Subscription } from './port';
import { subjectMatcher, subjectMatches } from './subject-filter';

interface StoredMessage {
  seq: number;
  subject: string;
  msgId: string;
  payload: string;
  headers: Record<string, string>;
}

interface Subscriber {
  handler: (message: BusMessage) => Promise<void>;
  busy: boolean;
  /** The sequence it is working on, to hand back if it stops. */
  current?: number;
}

/**
 * One named consumer: a cursor over the log, the messages delivered but not yet acknowledged,
 * and the subscribers that share its work (each takes one message at a time).
 */
class Durable {
  private cursor = 0;
  private readonly deliveries = new Map<number, { count: number; timer?: NodeJS.Timeout }>();
  private readonly ready: number[] = [];
  private readonly subscribers: Subscriber[] = [];
  private pumping = false;
  private readonly matches: (subject: string) => boolean;

  constructor(
    private readonly bus: InProcessLog,
    private readonly options: { filter: string; ackWaitMs: number; retryDelayMs: number },
  ) {
    this.matches = subjectMatcher(options.filter);
  }

  add(subscriber: Subscriber): void {
    this.subscribers.push(subscriber);
    this.schedule();
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.splice(this.subscribers.indexOf(subscriber), 1);
    if (subscriber.current !== undefined) this.redeliver(subscriber.current);
  }

  schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.pump();
    });
  }

  dispose(): void {
    for (const delivery of this.deliveries.values()) clearTimeout(delivery.timer);
    this.subscribers.length = 0;
  }

  private pump(): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.busy) continue;
      const seq = this.next();
      if (seq === undefined) return;
      void this.deliver(subscriber, seq);
    }
  }

  private next(): number | undefined {
    while (this.ready.length > 0) {
      const seq = this.ready.shift() as number;
      if (this.deliveries.has(seq) && this.bus.get(seq)) return seq;
    }
    for (;;) {
      const message = this.bus.after(this.cursor);
      if (!message) return undefined;
      this.cursor = message.seq;
      if (this.matches(message.subject)) return message.seq;
    }
  }

  private redeliver(seq: number, delayMs = 0): void {
    const delivery = this.deliveries.get(seq);
    if (!delivery) return;
    clearTimeout(delivery.timer);
    delivery.timer = setTimeout(() => {
      this.ready.push(seq);
      this.schedule();
    }, delayMs);
  }

  private async deliver(subscriber: Subscriber, seq: number): Promise<void> {
    const stored = this.bus.get(seq) as StoredMessage;
    const delivery = this.deliveries.get(seq) ?? { count: 0 };
    delivery.count += 1;
    this.deliveries.set(seq, delivery);
    clearTimeout(delivery.timer);
    // Not acknowledged in time: another subscriber (or this one, later) gets it again.
    delivery.timer = setTimeout(() => this.redeliver(seq), this.options.ackWaitMs);
    subscriber.busy = true;
    subscriber.current = seq;
    const message: BusMessage = { subject: stored.subject, msgId: stored.msgId, data: JSON.parse(stored.payload), headers: { ...stored.headers }, deliveryCount: delivery.count };
    try {
      await subscriber.handler(message);
      const acked = this.deliveries.get(seq);
      clearTimeout(acked?.timer);
      this.deliveries.delete(seq);
    } catch {
      this.redeliver(seq, this.options.retryDelayMs);
    } finally {
      subscriber.busy = false;
      subscriber.current = undefined;
      this.schedule();
    }
  }
}

/** The message log with JetStream-like limits: bounded length, de-duplication window. */
class InProcessLog {
  private readonly messages: StoredMessage[] = [];
  private readonly seen = new Map<string, number>();
  private seq = 0;

  constructor(private readonly limits: { duplicateWindowMs: number; maxMessages: number }) {}

  append(subject: string, msgId: string, payload: string, headers: Record<string, string>): boolean {
    const now = Date.now();
    for (const [id, at] of this.seen) {
      if (now - at < this.limits.duplicateWindowMs) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return false;
    this.seen.set(msgId, now);
    this.seq += 1;
    this.messages.push({ seq: this.seq, subject, msgId, payload, headers });
    if (this.messages.length > this.limits.maxMessages) this.messages.shift();
    return true;
  }

  get(seq: number): StoredMessage | undefined {
    const first = this.messages[0];
    return first ? this.messages[seq - first.seq] : undefined;
  }

  after(seq: number): StoredMessage | undefined {
    const first = this.messages[0];
    if (!first) return undefined;
    return this.messages[Math.max(0, seq + 1 - first.seq)];
  }
}

export interface InProcessBusOptions {
  /** A second publish with the same message id inside this window is dropped (default 2 min). */
  duplicateWindowMs?: number;
  /** The oldest messages are dropped beyond this many (default 100 000). */
  maxMessages?: number;
}

/**
 * The in-process EventBus for the all-in-one shape and tests: the same at-least-once contract as
 * JetStream (durables that start from the oldest kept message, shared by their subscribers,
 * redelivery after a failure or the ack wait) inside one process.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): EventBus {
  const log = new InProcessLog({ duplicateWindowMs: options.duplicateWindowMs ?? 120_000, maxMessages: options.maxMessages ?? 100_000 });
  const durables = new Map<string, { filter: string; durable: Durable }>();
  const listeners = new Set<{ filter: string; handler: (message: LiveMessage) => void }>();
  let closed = false;

  return {
    kind: 'in-process',
    async publish(subject: string, data: unknown, publishOptions: PublishOptions): Promise<PublishResult> {
      if (closed) throw new Error('the bus is closed');
      const appended = log.append(subject, publishOptions.msgId, JSON.stringify(data ?? null), publishOptions.headers ?? {});
      if (appended) for (const { durable } of durables.values()) durable.schedule();
      return { duplicate: !appended };
    },
    async subscribe<T>(subscribeOptions: SubscribeOptions<T>): Promise<Subscription> {
      if (closed) throw new Error('the bus is closed');
      let entry = durables.get(subscribeOptions.durable);
      if (entry && entry.filter !== subscribeOptions.filter) {
        throw new Error(`the durable ${subscribeOptions.durable} already filters ${entry.filter}, not ${subscribeOptions.filter}`);
      }
      if (!entry) {
        entry = {
          filter: subscribeOptions.filter,
          durable: new Durable(log, { filter: subscribeOptions.filter, ackWaitMs: subscribeOptions.ackWaitMs ?? 30_000, retryDelayMs: subscribeOptions.retryDelayMs ?? 1000 }),
        };
        durables.set(subscribeOptions.durable, entry);
      }
      const subscriber: Subscriber = { handler: subscribeOptions.handler as Subscriber['handler'], busy: false };
      const { durable } = entry;
      durable.add(subscriber);
      return {
        async stop() {
          durable.remove(subscriber);
        },
      };
    },
    async broadcast(subject: string, data: unknown): Promise<void> {
      if (closed) throw new Error('the bus is closed');
      const payload = JSON.stringify(data ?? null);
      for (const listener of listeners) {
        if (!subjectMatches(listener.filter, subject)) continue;
        // Each listener gets its own copy, after the publisher returns, as across a network.
        setImmediate(() => {
          if (!listeners.has(listener)) return;
          try {
            listener.handler({ subject, data: JSON.parse(payload) });
          } catch {
            // A throwing handler must not end the listener, as with NATS.
          }
        });
      }
    },
    async listen<T>(filter: string, handler: (message: LiveMessage<T>) => void): Promise<Subscription> {
      if (closed) throw new Error('the bus is closed');
      const listener = { filter, handler: handler as (message: LiveMessage) => void };
      listeners.add(listener);
      return {
        async stop() {
          listeners.delete(listener);
        },
      };
    },
    async ping() {
      return !closed;
    },
    async close() {
      closed = true;
      listeners.clear();
      for (const { durable } of durables.values()) durable.dispose();
    },
  };
}
