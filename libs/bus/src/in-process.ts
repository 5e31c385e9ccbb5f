import { DEFAULT_ACK_WAIT_MS, type BusMessage, type DrainResult, type EventBus, type LiveMessage, type PublishOptions, type PublishResult, type SubscribeOptions, type Subscription } from './port';
import { ChunkedQueue } from './chunked-queue';
import { subjectMatcher, subjectMatches } from './subject-filter';

interface StoredMessage {
  seq: number;
  subject: string;
  msgId: string;
  payload: string;
  headers: Record<string, string>;
  /** When it was appended, in ms since the epoch. */
  publishedAt: number;
  /** The durables `handled` waits for: those that matched it and had a subscriber when it was published. */
  awaiting?: Durable[];
  handled?: () => void;
}

/**
 * A subscriber that finishes a message takes the next one at once, up to this many times in a row,
 * then the durable waits one turn of the event loop (so a consumer whose handlers resolve at once
 * cannot hold up I/O). One message per turn let the consumers of a busy server (each turn serving
 * every socket) fall further behind with every write.
 */
const MAX_CHAINED_DELIVERIES = 64;

interface Subscriber {
  handler: (message: BusMessage) => Promise<void>;
  busy: boolean;
  /** The sequence it is working on, to hand back if it stops. */
  current?: number;
}

/**
 * One named consumer: the kept messages its filter matches that it has not taken yet, the
 * messages delivered but not yet acknowledged, and the subscribers that share its work (each takes
 * one message at a time). It needs a message until it has taken and acknowledged it; the log keeps
 * every message some durable needs.
 */
class Durable {
  private readonly waiting = new ChunkedQueue<number>();
  /**
   * Keyed by sequence, added as `waiting` is taken (in order), so the first key is the oldest.
   * `deadline`: while a subscriber handles it, when its ack wait ends; `retry`: a redelivery's timer.
   */
  private readonly deliveries = new Map<number, { count: number; deadline?: number; retry?: NodeJS.Timeout }>();
  /**
   * One timer for every ack wait of the durable: at most one delivery per subscriber is being
   * handled, so each expiry scans a handful, where a timer per delivery cost a timer set and
   * cleared for every message every durable takes.
   */
  private ackTimer: NodeJS.Timeout | undefined;
  private readonly ready = new ChunkedQueue<number>();
  private readonly subscribers: Subscriber[] = [];
  private pumping = false;
  /** Deliveries started straight from a finished one since the durable last waited for a turn. */
  private chained = 0;
  private readonly matches: (subject: string) => boolean;

  constructor(
    private readonly bus: InProcessLog,
    private readonly options: {
      filter: string;
      ackWaitMs: number;
      retryDelayMs: number;
      progressed: () => void;
      acknowledged: (message: StoredMessage, durable: Durable) => void;
    },
  ) {
    this.matches = subjectMatcher(options.filter);
    // A new durable starts from the oldest kept message, as JetStream's does.
    bus.forEachKept((message) => this.offer(message));
  }

  /** Queues the message if its filter matches it; answers whether it did. */
  offer(message: StoredMessage): boolean {
    if (!this.matches(message.subject)) return false;
    this.waiting.push(message.seq);
    this.schedule();
    return true;
  }

  /** The sequence of the oldest message it still needs (Infinity when it needs none). */
  oldestNeeded(): number {
    return Math.min(this.waiting.at(0) ?? Infinity, this.deliveries.keys().next().value ?? Infinity);
  }

  /** Messages it still has to take or acknowledge, those being handled or awaiting a retry included. */
  outstanding(): number {
    return this.waiting.length + this.deliveries.size;
  }

  /** Whether a subscriber still handles its messages; a drain waits only for such durables. */
  subscribed(): boolean {
    return this.subscribers.length > 0;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.push(subscriber);
    this.schedule();
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.splice(this.subscribers.indexOf(subscriber), 1);
    if (subscriber.current !== undefined) this.redeliver(subscriber.current);
    this.options.progressed();
  }

  private schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.chained = 0;
      this.pump();
    });
  }

  dispose(): void {
    clearTimeout(this.ackTimer);
    for (const delivery of this.deliveries.values()) clearTimeout(delivery.retry);
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
      if (this.deliveries.has(seq)) return seq;
    }
    return this.waiting.shift();
  }

  private redeliver(seq: number, delayMs = 0): void {
    const delivery = this.deliveries.get(seq);
    if (!delivery) return;
    delivery.deadline = undefined;
    clearTimeout(delivery.retry);
    delivery.retry = setTimeout(() => {
      this.ready.push(seq);
      this.schedule();
    }, delayMs);
  }

  /** Arms the ack-wait timer unless it is armed (it fires at the earliest deadline or later). */
  private watchAckWait(): void {
    if (this.ackTimer) return;
    this.ackTimer = setTimeout(() => this.expireAckWaits(), this.options.ackWaitMs);
    // Only a delivery being handled needs it, and its handler holds the process open if it must.
    this.ackTimer.unref();
  }

  /** Not acknowledged in time: another subscriber (or this one, later) gets it again. */
  private expireAckWaits(): void {
    this.ackTimer = undefined;
    const now = Date.now();
    let next = Infinity;
    for (const [seq, delivery] of this.deliveries) {
      if (delivery.deadline === undefined) continue;
      if (delivery.deadline <= now) this.redeliver(seq);
      else next = Math.min(next, delivery.deadline);
    }
    if (next === Infinity) return;
    this.ackTimer = setTimeout(() => this.expireAckWaits(), next - now);
    this.ackTimer.unref();
  }

  private async deliver(subscriber: Subscriber, seq: number): Promise<void> {
    // Kept: the log drops no message this durable has not acknowledged.
    const stored = this.bus.get(seq) as StoredMessage;
    let delivery = this.deliveries.get(seq);
    if (!delivery) this.deliveries.set(seq, (delivery = { count: 0 }));
    delivery.count += 1;
    const count = delivery.count;
    delivery.deadline = Date.now() + this.options.ackWaitMs;
    this.watchAckWait();
    subscriber.busy = true;
    subscriber.current = seq;
    const message: BusMessage = {
      subject: stored.subject,
      msgId: stored.msgId,
      data: JSON.parse(stored.payload),
      headers: { ...stored.headers },
      deliveryCount: delivery.count,
      // JetStream's pending count: the durable's lag, which the consumer-lag metric reports.
      pending: this.waiting.length,
      publishedAt: stored.publishedAt,
      working: () => {
        const current = this.deliveries.get(seq);
        // Only while this delivery is the one being handled: not once acknowledged, handed back or delivered again.
        if (current?.count !== count || current.deadline === undefined) return;
        current.deadline = Date.now() + this.options.ackWaitMs;
        this.watchAckWait();
      },
    };
    try {
      await subscriber.handler(message);
      clearTimeout(this.deliveries.get(seq)?.retry);
      // Once per durable: after the ack wait two subscribers may both finish the same message.
      if (this.deliveries.delete(seq)) this.options.acknowledged(stored, this);
      this.options.progressed();
    } catch {
      this.redeliver(seq, this.options.retryDelayMs);
    } finally {
      subscriber.busy = false;
      subscriber.current = undefined;
      if (this.chained < MAX_CHAINED_DELIVERIES) {
        this.chained += 1;
        this.pump();
      } else this.schedule();
    }
  }
}

/** What a kept message costs in memory, roughly: its payload's characters, with its subject and id. */
function keptSize(message: StoredMessage): number {
  return message.payload.length + message.subject.length + message.msgId.length;
}

/**
 * The message log with JetStream-like limits: a de-duplication window, and bounds on length and
 * bytes that only drop messages no durable needs any more (kept up to `maxMessages` and
 * `maxBytes` for a durable created later). Sequence numbers are contiguous, so a message is found
 * by its distance from the oldest.
 */
class InProcessLog {
  private readonly messages = new ChunkedQueue<StoredMessage>();
  private readonly seen = new Map<string, number>();
  private seq = 0;
  /** The sequence of the oldest kept message. */
  private first = 1;
  /** keptSize of every kept message together. */
  private bytes = 0;

  constructor(private readonly limits: { duplicateWindowMs: number; maxMessages: number; maxBytes: number }) {}

  /** The stored message, or undefined for a duplicate inside the window. */
  append(subject: string, msgId: string, payload: string, headers: Record<string, string>): StoredMessage | undefined {
    const now = Date.now();
    for (const [id, at] of this.seen) {
      if (now - at < this.limits.duplicateWindowMs) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return undefined;
    this.seen.set(msgId, now);
    this.seq += 1;
    const message = { seq: this.seq, subject, msgId, payload, headers, publishedAt: now };
    this.messages.push(message);
    this.bytes += keptSize(message);
    return message;
  }

  get(seq: number): StoredMessage | undefined {
    return this.messages.at(seq - this.first);
  }

  forEachKept(visit: (message: StoredMessage) => void): void {
    for (let index = 0; index < this.messages.length; index += 1) visit(this.messages.at(index) as StoredMessage);
  }

  /** Beyond `maxMessages` or `maxBytes`, drops the oldest messages, but none from `oldestNeeded()` on. */
  trim(oldestNeeded: () => number): void {
    if (this.messages.length <= this.limits.maxMessages && this.bytes <= this.limits.maxBytes) return;
    const keepFrom = oldestNeeded();
    while (this.first < keepFrom && (this.messages.length > this.limits.maxMessages || this.bytes > this.limits.maxBytes)) {
      this.bytes -= keptSize(this.messages.shift() as StoredMessage);
      this.first += 1;
    }
  }
}

export interface InProcessBusOptions {
  /** A second publish with the same message id inside this window is dropped (default 2 min). */
  duplicateWindowMs?: number;
  /**
   * Beyond this many messages the oldest ones no durable needs are dropped (default 100 000). A
   * message a durable has not yet taken and acknowledged is kept whatever the count.
   */
  maxMessages?: number;
  /**
   * Beyond this many characters of payload the oldest messages no durable needs are dropped too
   * (default 32 MiB, DEFAULT_MAX_KEPT_BYTES), whatever their number: each document event carries
   * the whole document, so 100,000 events of large documents are gigabytes.
   */
  maxBytes?: number;
}

/**
 * How much the log keeps of what every durable has acknowledged. In the all-in-one every durable
 * subscribes at start, so those messages served only a durable created later, yet each held its
 * document: 1,500 writes of a 200 KB document left about 220 MB in the process after every
 * consumer had handled them.
 */
export const DEFAULT_MAX_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * The in-process EventBus for the all-in-one shape and tests: the same at-least-once contract as
 * JetStream (durables that start from the oldest kept message, shared by their subscribers,
 * redelivery after a failure or the ack wait, the lag with each delivery) inside one process. A
 * message stays in memory until every durable whose filter matches it has acknowledged it, so a
 * lagging consumer costs memory, never events; nothing outlives the process, so a graceful stop
 * first lets the durables finish (`drain`), and each publish answers `handled`, which resolves
 * once the durables subscribed to the message have acknowledged it (the all-in-one's outbox keeps
 * the change until then, so that a crash loses none).
 */
export function createInProcessBus(options: InProcessBusOptions = {}): EventBus {
  const log = new InProcessLog({ duplicateWindowMs: options.duplicateWindowMs ?? 120_000, maxMessages: options.maxMessages ?? 100_000, maxBytes: options.maxBytes ?? DEFAULT_MAX_KEPT_BYTES });
  const durables = new Map<string, { filter: string; durable: Durable }>();
  const listeners = new Set<{ filter: string; handler: (message: LiveMessage) => void }>();
  let closed = false;
  /** Drains waiting for the durables to settle; each acknowledgement wakes them. */
  const drains = new Set<() => void>();
  const progressed = () => {
    for (const check of drains) check();
  };
  // A durable whose service stopped it (the sync notifier, once the realtime streams closed) has no one to wait for.
  const left = (): DrainResult['left'] => {
    const counts: DrainResult['left'] = {};
    for (const [name, { durable }] of durables) if (durable.subscribed() && durable.outstanding() > 0) counts[name] = durable.outstanding();
    return counts;
  };
  const settled = () => Object.keys(left()).length === 0;
  const acknowledged = (message: StoredMessage, durable: Durable) => {
    const awaiting = message.awaiting;
    const index = awaiting?.indexOf(durable) ?? -1;
    if (!awaiting || index < 0) return;
    awaiting.splice(index, 1);
    if (awaiting.length > 0) return;
    message.awaiting = undefined;
    message.handled?.();
    message.handled = undefined;
  };
  const oldestNeeded = () => {
    let oldest = Infinity;
    for (const { durable } of durables.values()) oldest = Math.min(oldest, durable.oldestNeeded());
    return oldest;
  };

  return {
    kind: 'in-process',
    async publish(subject: string, data: unknown, publishOptions: PublishOptions): Promise<PublishResult> {
      if (closed) throw new Error('the bus is closed');
      const stored = log.append(subject, publishOptions.msgId, JSON.stringify(data ?? null), publishOptions.headers ?? {});
      if (!stored) return { duplicate: true };
      const awaiting: Durable[] = [];
      for (const { durable } of durables.values()) if (durable.offer(stored) && durable.subscribed()) awaiting.push(durable);
      log.trim(oldestNeeded);
      if (awaiting.length === 0) return { duplicate: false, handled: Promise.resolve() };
      stored.awaiting = awaiting;
      const handled = new Promise<void>((resolve) => (stored.handled = resolve));
      return { duplicate: false, handled };
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
          durable: new Durable(log, {
            filter: subscribeOptions.filter,
            ackWaitMs: subscribeOptions.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
            retryDelayMs: subscribeOptions.retryDelayMs ?? 1000,
            progressed,
            acknowledged,
          }),
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
    async drain(timeoutMs: number): Promise<DrainResult> {
      if (!settled()) {
        await new Promise<void>((done) => {
          const finish = () => {
            clearTimeout(timer);
            drains.delete(check);
            done();
          };
          const check = () => {
            if (settled()) finish();
          };
          const timer = setTimeout(finish, timeoutMs);
          drains.add(check);
        });
      }
      return { left: left() };
    },
    async close() {
      closed = true;
      listeners.clear();
      for (const { durable } of durables.values()) durable.dispose();
    },
  };
}
