import { DEFAULT_ACK_WAIT_MS, type BusMessage } from './port';

/**
 * Runs a handler's `work` on `message`, telling the bus every third of the ack wait that it is
 * still at it (`working()`): work that can outlast the ack wait (a large erasure, slow webhooks)
 * is otherwise delivered again meanwhile and runs twice at once.
 */
export async function whileWorking<T>(message: Pick<BusMessage, 'working'>, work: () => Promise<T>, ackWaitMs = DEFAULT_ACK_WAIT_MS): Promise<T> {
  const heartbeat = setInterval(() => message.working(), Math.max(100, Math.floor(ackWaitMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}
