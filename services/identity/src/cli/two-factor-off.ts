import { UserRepository } from '../users/user-repository';
import { runOperatorCommand } from './operator-backends';

/**
 * `pnpm --filter identity two-factor-off <email>`: turns two-step sign-in off for someone who lost
 * both their authenticator app and their recovery codes, once the operator has made sure who asks
 * (see operator-backends.ts for the backends). The password still signs in; the user can turn it
 * on again with a new app.
 */
await runOperatorCommand('two-factor-off', async ({ store }, email) => {
  const users = new UserRepository(store, Date.now);
  const user = await users.findByEmail(email.trim().toLowerCase());
  if (!user) return { ok: false, message: `No account with the email ${email}` };
  if (!(await users.disableTwoFactor(user.id))) return { ok: false, message: `Two-step sign-in is already off for ${user.email}` };
  return { ok: true, message: `Two-step sign-in is off for ${user.email} (${user.id}): the password alone signs in` };
});
