import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ARGON2_CONCURRENCY, argon2Load, hashPassword, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('runs at most ARGON2_CONCURRENCY Argon2 calls at once, so file work on the shared thread pool is not held behind sign-ins', async () => {
    const stored = await hashPassword('correct horse battery');
    const checks = Array.from({ length: 6 }, (_, n) => verifyPassword(stored, n % 2 ? 'correct horse battery' : 'wrong'));
    // p-limit starts queued calls a microtask later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(argon2Load()).toEqual({ running: ARGON2_CONCURRENCY, waiting: 6 - ARGON2_CONCURRENCY });
    // Started after the six, on the pool they share: it finds a free thread instead of waiting behind them.
    const finished: string[] = [];
    await Promise.all([stat(import.meta.filename).then(() => finished.push('file')), ...checks.map((check) => check.then(() => finished.push('check')))]);
    expect(finished[0]).toBe('file');
    expect(await Promise.all(checks)).toEqual([false, true, false, true, false, true]);
    expect(argon2Load()).toEqual({ running: 0, waiting: 0 });
  });
});
