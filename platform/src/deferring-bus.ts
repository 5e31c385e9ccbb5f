import type { EventBus } from '@platform/bus';

/** Why a deferring bus refused to publish; the outbox drain logs it and keeps the change. */
export const DEFERRED_PUBLISH = 'not published by this command: the in-process bus has no consumers here; the platform publishes it from the outbox at its next start';

/**
 * The bus for an operator command on the in-process bus. That bus lives inside one process, so an
 * event a separate command published there would reach no consumer (audit trail, actions, sync)
 * and be lost once the drain removed it from the outbox. This bus refuses every publish: the
 * change stays in its document's outbox, in the store, and the platform's outbox sweep publishes
 * it when the platform starts again. Subscriptions and broadcasts go to the wrapped bus.
 */
export function deferringBus(inner: EventBus): EventBus {
  return {
    kind: inner.kind,
    publish: async () => {
      throw new Error(DEFERRED_PUBLISH);
    },
    subscribe: (options) => inner.subscribe(options),
    broadcast: (subject, data) => inner.broadcast(subject, data),
    listen: (filter, handler) => inner.listen(filter, handler),
    ping: () => inner.ping(),
    drain: (timeoutMs) => inner.drain(timeoutMs),
    close: () => inner.close(),
  };
}
