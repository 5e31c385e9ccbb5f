import { describe, expect, it } from 'vitest';
import { authorNames, hidesUser, type NameLookup } from './author-names';

/** A lookup answering from `answers` in turn, counting calls per user. */
function scripted(answers: Array<NameLookup | Error>) {
  const calls: string[] = [];
  const lookup = async (userId: string): Promise<NameLookup> => {
    calls.push(userId);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no answer scripted');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, lookup };
}

describe('author names', () => {
  it('keeps a found name: the second use asks nobody', async () => {
    const { calls, lookup } = scripted([{ found: 'Ada Lovelace' }]);
    const name = authorNames(lookup);
    expect(await name('u1')).toBe('Ada Lovelace');
    expect(await name('u1')).toBe('Ada Lovelace');
    expect(calls).toEqual(['u1']);
  });

  it('keeps a hidden user as the id, and a user without a display name as the id', async () => {
    const { calls, lookup } = scripted(['hidden', { found: undefined }]);
    const name = authorNames(lookup);
    expect(await name('hidden-user')).toBe('hidden-user');
    expect(await name('nameless')).toBe('nameless');
    expect(await name('hidden-user')).toBe('hidden-user');
    expect(await name('nameless')).toBe('nameless');
    expect(calls).toEqual(['hidden-user', 'nameless']);
  });

  it('answers the id while a lookup fails, and asks again on the next use', async () => {
    const { calls, lookup } = scripted([new TypeError('Failed to fetch'), { found: 'Ada Lovelace' }]);
    const name = authorNames(lookup);
    expect(await name('u1')).toBe('u1');
    expect(await name('u1')).toBe('Ada Lovelace');
    expect(await name('u1')).toBe('Ada Lovelace');
    expect(calls).toEqual(['u1', 'u1']);
  });

  it('shares one lookup among the uses waiting for it', async () => {
    const { calls, lookup } = scripted([{ found: 'Ada Lovelace' }]);
    const name = authorNames(lookup);
    expect(await Promise.all([name('u1'), name('u1')])).toEqual(['Ada Lovelace', 'Ada Lovelace']);
    expect(calls).toEqual(['u1']);
  });

  it('keeps a 403 or 404 as hidden, and asks again after a 401, a 429 or a 5xx', () => {
    expect([403, 404].map(hidesUser)).toEqual([true, true]);
    expect([400, 401, 408, 429, 500, 503].map(hidesUser)).toEqual([false, false, false, false, false, false]);
  });
});
