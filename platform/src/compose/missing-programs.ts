export interface MissingProgram {
  program: string;
  /** How to get it, or which variable names an existing server instead. */
  remedy: string;
}

/**
 * The programs `pnpm start:services` would need to start the backends the environment does not
 * name, and does not have: found before anything starts, instead of a spawn error after a wait.
 */
export function missingPrograms(env: NodeJS.ProcessEnv, has: { executable(name: string): boolean; mongoCompatBuilt: boolean }): MissingProgram[] {
  const missing: MissingProgram[] = [];
  if (!env.NATS_URL && !has.executable('nats-server')) {
    missing.push({ program: 'nats-server', remedy: 'apt-get install nats-server, or set NATS_URL to a NATS server with JetStream' });
  }
  if (!env.REDIS_URL && !has.executable('redis-server')) {
    missing.push({ program: 'redis-server', remedy: 'apt-get install redis-server, or set REDIS_URL' });
  }
  if (!env.MONGO_URL && !has.mongoCompatBuilt && !has.executable('go')) {
    missing.push({ program: 'go', remedy: 'apt-get install golang-go (Go >= 1.24 builds the MongoDB-compatible server once), or set MONGO_URL to a MongoDB replica set' });
  }
  return missing;
}
