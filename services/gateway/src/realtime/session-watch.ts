import type { EventBus, Subscription } from '@platform/bus';
import { SESSION_ENDED_SUBJECT, type SessionEndedNotice } from '@platform/contracts';
import type { Logger } from '@platform/kit';
import type { SessionLoader, SessionLookup } from '../session-loader';

/** How often the sessions of open streams are looked up again: the bound on a stream outliving its session when a logout notice was missed. */
export const SESSION_CHECK_MS = 5_000;

/** An open stream as the watch sees it: who opened it, and how to end it. */
export interface WatchedStream {
  userId: string;
  platformOwner: boolean;
  /** The project whose changes it streams. */
  projectId: string;
  end(): void;
}

function stillStands(lookup: SessionLookup, stream: WatchedStream): boolean {
  if (lookup.status === 'store-unavailable') return true;
  if (lookup.status !== 'found') return false;
  const { session } = lookup;
  const reachesProject = session.projectIds === undefined || session.projectIds.includes(stream.projectId);
  return session.userId === stream.userId && session.platformOwner === stream.platformOwner && reachesProject;
}

/**
 * Ends open streams whose session has ended (logout, expiry, revocation), whose platform
 * ownership changed (the client reconnects with a fresh token and its current standing), or whose
 * access token no longer reaches the stream's project (its projects were changed). A logout
 * is announced on the bus (SESSION_ENDED_SUBJECT) and its streams are checked at once; polling the
 * session store every `intervalMs` catches what no notice announces (expiry) and any notice lost
 * on the way. One lookup per session per round, however many streams it has open. While the store
 * cannot be reached, streams stay open on the same terms as requests (a session the gateway has
 * seen keeps working from its cache).
 */
export class SessionWatch {
  private readonly bySession = new Map<string, Set<WatchedStream>>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private notices: Subscription | undefined;

  constructor(private readonly options: { loader: SessionLoader; logger: Logger; intervalMs?: number }) {}

  start(): void {
    this.timer = setInterval(() => {
      this.round ??= this.check().finally(() => (this.round = undefined));
    }, this.options.intervalMs ?? SESSION_CHECK_MS);
    this.timer.unref();
  }

  /** Checks a session's streams as soon as its end is announced. */
  async follow(bus: EventBus): Promise<void> {
    this.notices = await bus.listen<SessionEndedNotice>(SESSION_ENDED_SUBJECT, (message) => {
      const watched = message.data.tokenHashes.filter((hash) => this.bySession.has(hash));
      if (watched.length) void this.check(watched);
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.notices?.stop();
    await this.round;
  }

  /** Watches a stream of the session stored under `sessionHash`; answers the function that stops watching it. */
  watch(sessionHash: string, stream: WatchedStream): () => void {
    const streams = this.bySession.get(sessionHash) ?? new Set<WatchedStream>();
    streams.add(stream);
    this.bySession.set(sessionHash, streams);
    return () => {
      streams.delete(stream);
      if (streams.size === 0 && this.bySession.get(sessionHash) === streams) this.bySession.delete(sessionHash);
    };
  }

  private async check(sessionHashes: string[] = [...this.bySession.keys()]): Promise<void> {
    await Promise.all(
      sessionHashes.map(async (sessionHash) => {
        const streams = this.bySession.get(sessionHash);
        if (!streams) return;
        const lookup = await this.options.loader.loadByHash(sessionHash);
        for (const stream of [...streams]) if (!stillStands(lookup, stream)) stream.end();
      }),
    ).catch((error: unknown) => this.options.logger.warn({ err: error }, 'realtime session check failed'));
  }
}
