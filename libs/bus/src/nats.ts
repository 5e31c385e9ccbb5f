import {
  AckPolicy,
  connect,
  DeliverPolicy,
  headers as natsHeaders,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { DEFAULT_ACK_WAIT_MS, type BusMessage, type EventBus, type LiveMessage, type PublishOptions, type PublishResult, type SubscribeOptions, type Subscription } from './port';

export interface NatsBusOptions {
  url: string;
  /**
   * Keeps this deployment's events apart from others on the same NATS server (NATS_NAMESPACE):
   * every subject is sent as `<namespace>.<subject>` and the stream is `PLATFORM_<namespace>`, so
   * durables (which belong to a stream) and live broadcasts are never shared between deployments.
   * Unset: subjects as named, stream PLATFORM.
   */
  namespace?: string;
  /** The JetStream stream holding every platform subject (default PLATFORM, or PLATFORM_<namespace>). */
  stream?: string;
  /** Subjects the stream captures, before the namespace (default `platform.>`). */
  subjects?: string[];
  /** How long messages are kept (default 7 days). */
  maxAgeMs?: number;
  /** The de-duplication window for message ids (default 2 min). */
  duplicateWindowMs?: number;
  /** Client name shown in NATS monitoring. */
  name?: string;
}

const MSG_ID_HEADER = 'Nats-Msg-Id';
const DAY_MS = 24 * 60 * 60 * 1000;

async function ensureStream(manager: JetStreamManager, options: Required<Pick<NatsBusOptions, 'stream' | 'subjects' | 'maxAgeMs' | 'duplicateWindowMs'>>): Promise<void> {
  const config = {
    subjects: options.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(options.maxAgeMs),
    duplicate_window: nanos(options.duplicateWindowMs),
  };
  try {
    await manager.streams.info(options.stream);
    await manager.streams.update(options.stream, config);
  } catch (error) {
    if (!/stream not found/i.test((error as Error).message)) throw error;
    await manager.streams.add({ name: options.stream, ...config });
  }
}

async function ensureConsumer(manager: JetStreamManager, stream: string, config: Partial<ConsumerConfig> & { durable_name: string }): Promise<void> {
  try {
    const existing = await manager.consumers.info(stream, config.durable_name);
    if (existing.config.filter_subject !== config.filter_subject || existing.config.ack_wait !== config.ack_wait) {
      await manager.consumers.update(stream, config.durable_name, { filter_subject: config.filter_subject, ack_wait: config.ack_wait });
    }
  } catch (error) {
    if (!/consumer not found/i.test((error as Error).message)) throw error;
    try {
      await manager.consumers.add(stream, config);
    } catch (raced) {
      // Another replica created it between our lookup and add: same config, nothing to do.
      if (!/already (exists|in use)/i.test((raced as Error).message)) throw raced;
    }
  }
}

function headersOf(message: JsMsg): Record<string, string> {
  const found: Record<string, string> = {};
  if (!message.headers) return found;
  for (const key of message.headers.keys()) if (key !== MSG_ID_HEADER) found[key] = message.headers.get(key);
  return found;
}

/** A namespace is one subject token that is also valid in a stream name. */
export const NATS_NAMESPACE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

function assertNamespace(namespace: string): string {
  if (!NATS_NAMESPACE_PATTERN.test(namespace)) throw new Error(`NATS namespace ${JSON.stringify(namespace)} must be 1 to 32 letters, digits, _ or -`);
  return namespace;
}

/** Subjects as the platform names them, and as they travel on this deployment's part of NATS. */
function subjectMapping(namespace: string | undefined): { toWire: (subject: string) => string; fromWire: (subject: string) => string } {
  if (!namespace) return { toWire: (subject) => subject, fromWire: (subject) => subject };
  const prefix = `${namespace}.`;
  return { toWire: (subject) => prefix + subject, fromWire: (subject) => (subject.startsWith(prefix) ? subject.slice(prefix.length) : subject) };
}

/** How long a publish waits for JetStream's acknowledgement while connected. */
const PUBLISH_TIMEOUT_MS = 2_000;

/**
 * The JetStream EventBus. The stream is created (or updated) on start; publishes carry the
 * message id JetStream de-duplicates on; each durable is a pull consumer with explicit ack that
 * every replica subscribing under the same name shares.
 */
export async function createNatsBus(options: NatsBusOptions): Promise<EventBus> {
  const namespace = options.namespace ? assertNamespace(options.namespace) : undefined;
  const stream = options.stream ?? (namespace ? `PLATFORM_${namespace}` : 'PLATFORM');
  const { toWire, fromWire } = subjectMapping(namespace);
  const connection: NatsConnection = await connect({
    servers: options.url,
    name: options.name ?? 'platform',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  const manager = await connection.jetstreamManager();
  await ensureStream(manager, {
    stream,
    subjects: (options.subjects ?? ['platform.>']).map(toWire),
    maxAgeMs: options.maxAgeMs ?? 7 * DAY_MS,
    duplicateWindowMs: options.duplicateWindowMs ?? 120_000,
  });
  const jetstream = connection.jetstream();
  const running = new Set<ConsumerMessages>();
  // Tracks the connection so publishes fail at once while NATS is away, instead of waiting for
  // their timeout: callers (the data service's outbox) keep the event and publish it later.
  let connected = true;
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') connected = false;
      else if (status.type === 'reconnect') connected = true;
    }
  })().catch(() => undefined);

  return {
    kind: 'nats',
    async publish(subject: string, data: unknown, publishOptions: PublishOptions): Promise<PublishResult> {
      if (!connected || connection.isClosed()) throw new Error('NATS is not connected');
      const headers = natsHeaders();
      for (const [key, value] of Object.entries(publishOptions.headers ?? {})) headers.set(key, value);
      const ack = await jetstream.publish(toWire(subject), Buffer.from(JSON.stringify(data ?? null)), { msgID: publishOptions.msgId, headers, timeout: PUBLISH_TIMEOUT_MS });
      return { duplicate: ack.duplicate };
    },

    async subscribe<T>(subscribeOptions: SubscribeOptions<T>): Promise<Subscription> {
      const retryDelayMs = subscribeOptions.retryDelayMs ?? 1000;
      await ensureConsumer(manager, stream, {
        durable_name: subscribeOptions.durable,
        filter_subject: toWire(subscribeOptions.filter),
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: nanos(subscribeOptions.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
        max_deliver: -1,
      });
      const consumer = await jetstream.consumers.get(stream, subscribeOptions.durable);
      const messages = await consumer.consume({ max_messages: 32 });
      running.add(messages);
      const loop = async () => {
        for await (const received of messages) {
          const message: BusMessage<T> = {
            subject: fromWire(received.subject),
            msgId: received.headers?.get(MSG_ID_HEADER) ?? '',
            data: JSON.parse(Buffer.from(received.data).toString('utf8')) as T,
            headers: headersOf(received),
            deliveryCount: received.info.deliveryCount,
            pending: received.info.pending,
            publishedAt: Math.round(received.info.timestampNanos / 1e6),
            working: () => {
              try {
                received.working();
              } catch {
                // The connection is gone: the message comes again after its ack wait anyway.
              }
            },
          };
          try {
            await subscribeOptions.handler(message);
            received.ack();
          } catch {
            received.nak(retryDelayMs);
          }
        }
      };
      // A handler still running after stop() finishes on its own; its message is acked or
      // redelivered as usual, so stop() does not wait for it.
      loop().catch(() => undefined);
      return {
        async stop() {
          running.delete(messages);
          messages.stop();
        },
      };
    },

    async broadcast(subject: string, data: unknown): Promise<void> {
      if (!connected || connection.isClosed()) throw new Error('NATS is not connected');
      connection.publish(toWire(subject), Buffer.from(JSON.stringify(data ?? null)));
    },

    async listen<T>(filter: string, handler: (message: LiveMessage<T>) => void): Promise<Subscription> {
      const subscription = connection.subscribe(toWire(filter), {
        callback: (error, received) => {
          if (error) return;
          try {
            handler({ subject: fromWire(received.subject), data: JSON.parse(Buffer.from(received.data).toString('utf8')) as T });
          } catch {
            // A malformed payload or a throwing handler must not end the subscription.
          }
        },
      });
      return {
        async stop() {
          subscription.unsubscribe();
        },
      };
    },

    async ping() {
      if (connection.isClosed()) return false;
      const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 2000).unref());
      return Promise.race([connection.flush().then(() => true, () => false), timeout]);
    },

    async drain() {
      // Nothing to wait for: the stream keeps every unacknowledged message on disk and redelivers it after a restart.
      return { left: {} };
    },

    async close() {
      for (const messages of running) messages.stop();
      running.clear();
      await connection.drain().catch(() => connection.close());
    },
  };
}
