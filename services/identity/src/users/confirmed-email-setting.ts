import type { KeyValue } from '@platform/kv';
import type { IdentityDeps } from '../identity-deps';

/** Where identity keeps the IDENTITY_REQUIRE_CONFIRMED_EMAIL its unconfirmed accounts' sessions were last written for. */
const SETTING_KEY = 'identity:require-confirmed-email';
/** Unconfirmed accounts read at a time. */
const BATCH = 500;

/**
 * Brings the sessions of unconfirmed accounts in line with IDENTITY_REQUIRE_CONFIRMED_EMAIL when it
 * changed since identity last started: turned on, their live sessions and tokens are limited from
 * now on (not only the ones opened after); turned off, the limit goes. Sessions carry the limit
 * (the gateway reads nothing else), so they are rewritten (`Sessions.refresh`). Runs only after a
 * change, in the background; the setting is recorded once every account is done, so a pass cut
 * short runs again at the next start (each rewrite is idempotent). Answers how many accounts it
 * rewrote (0 when nothing changed).
 */
export async function applyConfirmedEmailSetting(deps: Pick<IdentityDeps, 'users' | 'sessions' | 'requireConfirmedEmail'>, kv: KeyValue): Promise<number> {
  const wanted = String(deps.requireConfirmedEmail);
  const recorded = await kv.get(SETTING_KEY);
  // A platform that never recorded it had the limit off (it was added off by default): nothing to
  // write then, so a deployment that never turns it on keeps no key for it.
  if ((recorded ?? 'false') === wanted) return 0;
  let rewritten = 0;
  for (let after = ''; ; ) {
    const batch = await deps.users.unconfirmedAfter(after, BATCH);
    for (const user of batch) await deps.sessions.refresh(user);
    rewritten += batch.length;
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.id;
  }
  await kv.set(SETTING_KEY, wanted);
  return rewritten;
}
