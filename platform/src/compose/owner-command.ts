/** A value as one word for a POSIX shell. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The promote-owner command line for the backends a `pnpm start:services` run uses: the database
 * it writes users to, and the Redis (with its key prefix) where the live sessions it refreshes
 * are, so a signed-in account is owner without signing in again. The prefix may come from `.env`,
 * which the shell the command is pasted into does not read, so it is written out too.
 */
export function promoteOwnerCommand(backends: { mongoUrl: string; mongoDatabase: string; redisUrl: string; redisKeyPrefix: string }): string {
  const variables: Array<[string, string]> = [
    ['MONGO_URL', backends.mongoUrl],
    ['MONGO_DATABASE', backends.mongoDatabase],
    ['REDIS_URL', backends.redisUrl],
  ];
  if (backends.redisKeyPrefix) variables.push(['REDIS_KEY_PREFIX', backends.redisKeyPrefix]);
  return `${variables.map(([name, value]) => `${name}=${shellWord(value)}`).join(' ')} pnpm --filter identity promote-owner <email>`;
}
