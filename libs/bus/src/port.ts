/**
 * The EventBus port: subjects with dot-separated tokens (`platform.docs.p1.t1.created`), publish
 * with a message id (a duplicate id inside the de-duplication window is dropped), and durable,
 * named, at-least-once subscriptions with explicit ack that replicas of one consumer share.
 * JetStream and an in-process adapter implement it; `contract.ts` is the one suite for both.
 */

export interface PublishOptions {
  /** De-duplication key: a second publish with the same id inside the window is dropped. */
  msgId: string;
  /** Extra headers carried to consumers (for example the request id). */
  headers?: Record<string, string>;
  /**
   * The publisher's trace context (an OpenTelemetry Context), for the tracing instrumentation: the
   * publish span starts under it and its W3C `traceparent` travels in the headers. Adapters ignore it.
   */
  traceContext?: unknown;
}

export interface PublishResult {
  duplicate: boolean;
  /**
   * Only the in-process bus answers it, for a message it stored: resolves once every durable that
   * had a subscriber and matched the message when it was published has acknowledged it (at once
   * when none did). What it holds dies with the process, so the all-in-one's outbox keeps a change
   * until then. JetStream's stream keeps the message itself and answers none.
   */
  handled?: Promise<void>;
}

export interface BusMessage<T = unknown> {
  subject: string;
  msgId: string;
  data: T;
  headers: Record<string, string>;
  /** 1 on the first delivery, higher on redeliveries. */
  deliveryCount: number;
  /**
   * Messages of the durable still waiting behind this one when it was delivered (JetStream's
   * pending count: the consumer's lag); both adapters report it.
   */
  pending?: number;
  /**
   * When the bus stored the message, in ms since the epoch (JetStream: the NATS server's clock);
   * both adapters report it. How long the message waited before this delivery (the
   * delivery-delay metric) is the consumer's clock minus this.
   */
  publishedAt?: number;
  /**
   * The delivery's trace context (an OpenTelemetry Context holding the consumer span), set by the
   * tracing instrumentation for the handler to start its spans under; absent while tracing is off.
   */
  traceContext?: unknown;
  /**
   * Tells the bus the handler is still at it (JetStream's in-progress ack): this delivery's ack
   * wait starts again, so a handler that may outlast `ackWaitMs` is not redelivered meanwhile if it
   * calls this more often than the wait (every third of it, say). Does nothing once the delivery
   * was acknowledged or handed back.
   */
  working(): void;
}

/** How long an unacknowledged message waits before it is delivered again, unless `SubscribeOptions.ackWaitMs` says otherwise. */
export const DEFAULT_ACK_WAIT_MS = 30_000;

export interface SubscribeOptions<T = unknown> {
  /** Durable consumer name. Subscriptions with the same name share its messages (work queue). */
  durable: string;
  /** Subject filter with NATS wildcards: `*` one token, `>` the rest. */
  filter: string;
  /**
   * Resolving acknowledges the message; throwing (or rejecting) makes it redeliver after `retryDelayMs`.
   */
  handler: (message: BusMessage<T>) => Promise<void>;
  /** Unacknowledged messages are redelivered after this long (DEFAULT_ACK_WAIT_MS) unless the handler calls `working()`. */
  ackWaitMs?: number;
  /** Delay before a failed message is redelivered (default 1 s). */
  retryDelayMs?: number;
}

export interface Subscription {
  /** Stops receiving; unacknowledged messages go to other subscribers of the durable. */
  stop(): Promise<void>;
}

/** What a drain left: the messages each subscribed durable had not acknowledged when it ended (durables with none left out). */
export interface DrainResult {
  left: Record<string, number>;
}

/** A message of a live (not stored) broadcast. */
export interface LiveMessage<T = unknown> {
  subject: string;
  data: T;
}

export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  publish(subject: string, data: unknown, options: PublishOptions): Promise<PublishResult>;
  subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription>;
  /**
   * Live fan-out: every listener whose filter matches, in every process, gets the message once.
   * Nothing is stored, acknowledged or replayed (a listener that is away misses it), so use it for
   * notifications a receiver can recover from otherwise. Subjects must lie outside `platform.>`
   * (the stream's subjects), else JetStream would also store them.
   */
  broadcast(subject: string, data: unknown): Promise<void>;
  /** Receives live broadcasts matching the filter (NATS wildcards) from now on. */
  listen<T = unknown>(filter: string, handler: (message: LiveMessage<T>) => void): Promise<Subscription>;
  /** Lightweight liveness probe for health checks. */
  ping(): Promise<boolean>;
  /**
   * Before a graceful stop: waits, at most `timeoutMs`, until every durable that has a subscriber
   * has handled and acknowledged what it was given, messages published meanwhile included (a
   * durable whose subscriptions were all stopped is neither waited for nor counted). Only
   * the in-process bus waits (what it holds dies with the process); JetStream keeps unacknowledged
   * messages and redelivers them after a restart, so it answers at once with nothing left.
   */
  drain(timeoutMs: number): Promise<DrainResult>;
  close(): Promise<void>;
}
