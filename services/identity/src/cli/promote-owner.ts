import { Sessions } from '../auth/sessions';
import { loadIdentityConfig } from '../config';
import { promoteOwner } from '../promotion/promote-owner';
import { UserRepository } from '../users/user-repository';
import { runOperatorCommand } from './operator-backends';

/** `pnpm --filter identity promote-owner <email>`: makes an account platform owner (see operator-backends.ts for the backends). */
await runOperatorCommand('promote-owner', async ({ store, kv }, email) => {
  const user = await promoteOwner({ users: new UserRepository(store, Date.now), sessions: new Sessions(kv, Date.now, { requireConfirmedEmail: loadIdentityConfig().requireConfirmedEmail }) }, email);
  return user ? { ok: true, message: `${user.email} (${user.id}) is now a platform owner` } : { ok: false, message: `No account with the email ${email}` };
});
