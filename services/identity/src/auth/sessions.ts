import { randomBytes, randomUUID } from 'node:crypto';
import type { EventBus } from '@platform/bus';
import { SESSION_ENDED_SUBJECT, sessionKey, sessionUsedKey, type SessionEndedNotice, type SessionRecord } from '@platform/contracts';
import { hashToken, type Clock } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import type { StoredUser } from '../users/user-record';
import { describeDevice, deviceFamily, type SessionDevice } from './session-device';
import { identityError } from '../errors';
import { withSessionStore } from './session-store-availability';

/** Sessions last 30 days from creation; using them does not extend them. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Live sessions a user keeps: signing in once more ends the oldest beyond it, so a script that
 * signs in on every run (instead of using an access token) cannot fill the session store.
 */
export const MAX_SESSIONS_PER_USER = 100;

/**
 * Index of a user's sessions, so changes to the user (promotion, name) reach every session and its
 * owner can list them: a map of fields, one per session by its token's hash, so reading it costs
 * one read however many keys the store holds. A field's value is the session's id, kind and
 * device; sessions opened before devices were kept hold the bare id.
 */
export const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * A session opened by signing in, or a personal access token: a session its owner made for a
 * program, with a name and a lifetime of its own (docs/identity.md).
 */
export type SessionKind = 'session' | 'token';

interface SessionIndexEntry extends SessionDevice {
  id: string;
  /** Unix ms; absent on entries written before it was kept (they count as the oldest). */
  createdAt?: number;
  /** Absent on sessions opened by signing in. */
  kind?: 'token';
  name?: string;
}

function readIndexEntry(value: string): SessionIndexEntry {
  return value.startsWith('{') ? (JSON.parse(value) as SessionIndexEntry) : { id: value };
}

const kindOf = (entry: SessionIndexEntry): SessionKind => entry.kind ?? 'session';

/** One of a user's live sessions or tokens, as its owner sees it. */
export interface SessionSummary {
  id: string;
  /** A token's name; null for a session. */
  name: string | null;
  createdAt: number;
  expiresAt: number;
  /** When a gateway last saw it used (to within SESSION_USE_RESOLUTION_MS); null if never since it was made. */
  lastUsedAt: number | null;
  /** A person's name for the device ("Firefox 133 on Windows"); null when it sent no User-Agent. */
  device: string | null;
  userAgent: string | null;
  /** The client address that signed in. */
  address: string | null;
  /** A read-only access token. */
  readOnly: boolean;
  /** The projects an access token was made for; undefined: every project its user can reach. */
  projectIds: string[] | undefined;
}

/** A session or token as its owner sees it, from its index entry, its record and when it was last used (Unix ms as text). */
function summaryOf(entry: SessionIndexEntry, session: SessionRecord, usedAt: string | null): SessionSummary {
  const { id, name, userAgent, address } = entry;
  const { createdAt, expiresAt, readOnly, projectIds } = session;
  return { id, name: name ?? null, createdAt, expiresAt, lastUsedAt: usedAt === null ? null : Number(usedAt), device: describeDevice(userAgent), userAgent: userAgent ?? null, address: address ?? null, readOnly: readOnly === true, projectIds };
}

/** What an access token may do beyond acting as its user: only read, only some projects. */
export type TokenGrant = Pick<SessionRecord, 'readOnly' | 'projectIds'>;

/** An access token's name and what it may do, as a change of it starts from. */
export interface TokenState {
  name: string;
  readOnly: boolean;
  projectIds: string[] | undefined;
}

/** Marks personal access tokens, so people (and secret scanners) tell them from other strings. */
const ACCESS_TOKEN_PREFIX = 'pat_';
/** Rewrites of one session record that may meet another write each before one gives up. */
const REWRITE_ATTEMPTS = 10;

/** What the sessions of `user` say of it; `requireConfirmedEmail`: whether an unconfirmed email limits them. */
function sessionFields(user: StoredUser, requireConfirmedEmail: boolean): Pick<SessionRecord, 'userId' | 'platformOwner' | 'displayName' | 'language' | 'emailUnconfirmed'> {
  return {
    userId: user.id,
    platformOwner: user.platformOwner,
    displayName: user.displayName,
    ...(user.language ? { language: user.language } : {}),
    ...(requireConfirmedEmail && user.emailVerifiedAt === undefined ? { emailUnconfirmed: true } : {}),
  };
}

export interface SessionsOptions {
  /** Where ended sessions are announced (gateways close their realtime streams); none in tools. */
  bus?: EventBus;
  /** IDENTITY_REQUIRE_CONFIRMED_EMAIL: sessions of an account whose email is unconfirmed say so (the gateway limits them). */
  requireConfirmedEmail?: boolean;
}

/**
 * Server-side sessions in the KeyValue port. The client holds a random 256-bit token; the store
 * holds only its SHA-256, under which the gateway finds the session on every request.
 */
export class Sessions {
  private readonly bus: EventBus | undefined;
  private readonly requireConfirmedEmail: boolean;

  constructor(
    private readonly kv: KeyValue,
    private readonly clock: Clock,
    options: SessionsOptions = {},
  ) {
    this.bus = options.bus;
    this.requireConfirmedEmail = options.requireConfirmedEmail ?? false;
  }

  /**
   * A new session for `userId` opened from `device`; the user's oldest sessions beyond
   * MAX_SESSIONS_PER_USER end. 503 when the session store cannot be reached.
   */
  async create(user: StoredUser, device: SessionDevice): Promise<{ token: string; session: SessionRecord; knownDevice: boolean }> {
    // Room is made first: a store failure then leaves no session behind the 503 it answers.
    const before = await this.makeRoomForOneMore(user.id);
    // From the same read: whether a live session or token came from a device of this family
    // (deviceFamily: browser and system, versions aside), so a sign-in from it is no news to its owner.
    const family = deviceFamily(device.userAgent);
    const knownDevice = before.some((entry) => deviceFamily(entry.userAgent) === family);
    return { ...(await this.open(user, randomBytes(32).toString('base64url'), SESSION_LIFETIME_MS, device)), knownDevice };
  }

  /**
   * Ends the user's oldest sessions (never access tokens) so that one more keeps them at
   * MAX_SESSIONS_PER_USER; answers the user's sessions and tokens as they were read, before.
   */
  private async makeRoomForOneMore(userId: string): Promise<SessionIndexEntry[]> {
    const entries = await withSessionStore(async () => (await this.kv.fields(userSessionsKey(userId))).map(({ value }) => readIndexEntry(value)));
    const sessions = entries.filter((entry) => kindOf(entry) === 'session');
    if (sessions.length < MAX_SESSIONS_PER_USER) return entries;
    const oldest = new Set(sessions.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0)).slice(MAX_SESSIONS_PER_USER - 1).map((entry) => entry.id));
    await this.revokeWhere(userId, (entry) => oldest.has(entry.id));
    return entries;
  }

  /** A personal access token named `name`, made from `device`, that works for `lifetimeMs`, limited as `grant` says. */
  createAccessToken(user: StoredUser, name: string, lifetimeMs: number, device: SessionDevice, grant: TokenGrant = {}): Promise<{ token: string; session: SessionRecord }> {
    return this.open(user, `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`, lifetimeMs, { ...device, kind: 'token', name }, grant);
  }

  private async open(user: StoredUser, token: string, lifetimeMs: number, index: Omit<SessionIndexEntry, 'id'>, grant: TokenGrant = {}): Promise<{ token: string; session: SessionRecord }> {
    const tokenHash = hashToken(token);
    const now = this.clock();
    const session: SessionRecord = { id: randomUUID(), createdAt: now, expiresAt: now + lifetimeMs, ...sessionFields(user, this.requireConfirmedEmail), ...grant };
    await withSessionStore(async () => {
      const entry: SessionIndexEntry = { id: session.id, createdAt: now, ...index };
      await this.kv.setField(userSessionsKey(user.id), tokenHash, JSON.stringify(entry), { ttlMs: lifetimeMs });
      await this.kv.set(sessionKey(tokenHash), JSON.stringify(session), { ttlMs: lifetimeMs });
    });
    return { token, session };
  }

  /** Ends the session of `token`, if any. */
  async revoke(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await withSessionStore(async () => {
      const raw = await this.kv.get(sessionKey(tokenHash));
      await this.kv.delete(sessionKey(tokenHash));
      await this.kv.delete(sessionUsedKey(tokenHash));
      if (raw) await this.kv.deleteField(userSessionsKey((JSON.parse(raw) as SessionRecord).userId), tokenHash);
    });
    await this.announceEnded([tokenHash]);
  }

  /** The live sessions (or tokens) of `userId`, newest first. */
  async list(userId: string, kind: SessionKind): Promise<SessionSummary[]> {
    const summaries: SessionSummary[] = [];
    await withSessionStore(async () => {
      for (const { field: tokenHash, value } of await this.kv.fields(userSessionsKey(userId))) {
        const entry = readIndexEntry(value);
        if (kindOf(entry) !== kind) continue;
        const [raw, usedAt] = await Promise.all([this.kv.get(sessionKey(tokenHash)), this.kv.get(sessionUsedKey(tokenHash))]);
        if (!raw) continue;
        summaries.push(summaryOf(entry, JSON.parse(raw) as SessionRecord, usedAt));
      }
    });
    return summaries.sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Whether `sessionId` of `userId` is a session or a token; null when it is not live. */
  async kind(userId: string, sessionId: string): Promise<SessionKind | null> {
    const entries = await withSessionStore(async () => (await this.kv.fields(userSessionsKey(userId))).map(({ value }) => readIndexEntry(value)));
    const entry = entries.find(({ id }) => id === sessionId);
    return entry ? kindOf(entry) : null;
  }

  /**
   * Ends the session (or token: `kind`) `sessionId` of `userId`; answers whether it was live.
   * Logout goes by the session the gateway signed into the principal: the gateway forwards no
   * session token to services.
   */
  async revokeById(userId: string, sessionId: string, kind?: SessionKind): Promise<boolean> {
    return (await this.revokeWhere(userId, (entry) => entry.id === sessionId && (!kind || kindOf(entry) === kind))) > 0;
  }

  /**
   * Renames the access token `tokenId` of `userId` and sets what it may do, as `changeOf` decides
   * from what the token is now (its `grant` replaces the old one whole), keeping its secret and
   * expiry; answers its summary, or null when it is not a live token of the user. Gateways read
   * the session on every request, so the change holds from the next one; its open realtime
   * streams are looked at again at once (one of a project the token no longer reaches closes).
   */
  async amendToken(userId: string, tokenId: string, changeOf: (current: TokenState) => Promise<{ name: string; grant: TokenGrant }>): Promise<SessionSummary | null> {
    const amended = await withSessionStore(async () => {
      for (const { field: tokenHash, value } of await this.kv.fields(userSessionsKey(userId))) {
        const entry = readIndexEntry(value);
        if (entry.id !== tokenId || kindOf(entry) !== 'token') continue;
        let name = entry.name ?? '';
        const session = await this.rewrite(tokenHash, async ({ readOnly, projectIds, ...stored }) => {
          const change = await changeOf({ name: entry.name ?? '', readOnly: readOnly === true, projectIds });
          name = change.name;
          return { ...stored, ...change.grant };
        });
        if (!session) return null;
        // Only a rename writes the name: a change of what the token may do must not write back the
        // name it read over a rename made meanwhile.
        if (name !== (entry.name ?? '')) await this.kv.setField(userSessionsKey(userId), tokenHash, JSON.stringify({ ...entry, name }), { ttlMs: session.expiresAt - this.clock(), onlyIfPresent: true });
        return { tokenHash, session, entry: { ...entry, name } };
      }
      return null;
    });
    if (!amended) return null;
    await this.announceEnded([amended.tokenHash]);
    const usedAt = await withSessionStore(() => this.kv.get(sessionUsedKey(amended.tokenHash)));
    return summaryOf(amended.entry, amended.session, usedAt);
  }

  /**
   * Ends every session of `userId` but `keep` (the caller's own, after a password change), and its
   * access tokens too unless `keepTokens`; answers how many ended. Their realtime streams close as
   * on sign-out. Sessions end before the tokens are looked for: a token that one of those sessions
   * is making meanwhile is either written before that, and ends here, or finds its session gone
   * when it checks after writing, and ends itself (routes/access-tokens.ts).
   */
  async revokeAll(userId: string, options: { keep?: string; keepTokens?: boolean } = {}): Promise<number> {
    const sessions = await this.revokeWhere(userId, (entry) => entry.id !== options.keep && kindOf(entry) === 'session');
    if (options.keepTokens) return sessions;
    return sessions + (await this.revokeWhere(userId, (entry) => entry.id !== options.keep && kindOf(entry) === 'token'));
  }

  private async revokeWhere(userId: string, ends: (entry: SessionIndexEntry) => boolean): Promise<number> {
    const ended: string[] = [];
    await withSessionStore(async () => {
      for (const { field: tokenHash, value } of await this.kv.fields(userSessionsKey(userId))) {
        if (!ends(readIndexEntry(value))) continue;
        await this.kv.delete(sessionKey(tokenHash));
        await this.kv.delete(sessionUsedKey(tokenHash));
        await this.kv.deleteField(userSessionsKey(userId), tokenHash);
        ended.push(tokenHash);
      }
    });
    await this.announceEnded(ended);
    return ended.length;
  }

  /**
   * Tells gateways to look at these sessions' realtime streams again (ended, or a token changed).
   * Best effort: a gateway that misses the notice (bus down) still closes the session's streams at
   * its next periodic check of the session store.
   */
  private async announceEnded(tokenHashes: string[]): Promise<void> {
    if (!this.bus || tokenHashes.length === 0) return;
    const notice: SessionEndedNotice = { tokenHashes };
    await this.bus.broadcast(SESSION_ENDED_SUBJECT, notice).catch(() => undefined);
  }

  /** Rewrites the user's live sessions with its current standing, keeping each one's expiry. */
  async refresh(user: StoredUser): Promise<void> {
    for (const { field: tokenHash } of await this.kv.fields(userSessionsKey(user.id))) {
      await this.rewrite(tokenHash, async ({ emailUnconfirmed: _before, ...stored }) => ({ ...stored, ...sessionFields(user, this.requireConfirmedEmail) }));
    }
  }

  /**
   * Writes the session record `change` makes of the stored one, keeping its expiry, only over the
   * record it read: when another write landed since (a sign-out, a token's new grant, another
   * rewrite), it reads again and changes that, so neither undoes the other. Answers the record
   * written, or null when the session is gone or expired.
   */
  private async rewrite(tokenHash: string, change: (stored: SessionRecord) => Promise<SessionRecord>): Promise<SessionRecord | null> {
    for (let attempt = 1; ; attempt += 1) {
      const raw = await this.kv.get(sessionKey(tokenHash));
      if (!raw) return null;
      const session = await change(JSON.parse(raw) as SessionRecord);
      const ttlMs = session.expiresAt - this.clock();
      if (ttlMs <= 0) return null;
      if (await this.kv.set(sessionKey(tokenHash), JSON.stringify(session), { ttlMs, onlyIfValue: raw })) return session;
      if (attempt === REWRITE_ATTEMPTS) throw identityError('IDENTITY_SESSION_CHANGING');
    }
  }
}
