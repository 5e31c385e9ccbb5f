import { createMemoryKeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_LINKS, MailedLinkTokens, PASSWORD_RESET_LINKS } from './mailed-link-tokens';

describe('MailedLinkTokens', () => {
  it('lets only one of two links issued at once work, and that one only once', async () => {
    const links = new MailedLinkTokens(createMemoryKeyValue(), PASSWORD_RESET_LINKS);
    const [first, second] = await Promise.all([links.issue('user-1'), links.issue('user-1')]);
    const working = [];
    for (const token of [first, second]) if ((await links.peek(token)) === 'user-1') working.push(token);
    expect(working).toHaveLength(1);
    const redemptions = await Promise.all([links.consume(working[0]!), links.consume(working[0]!)]);
    expect(redemptions.filter((value) => value !== null)).toEqual(['user-1']);
    expect(await links.consume(first)).toBeNull();
    expect(await links.consume(second)).toBeNull();
  });

  it('retires the link before when a new one is issued, and every link on retire', async () => {
    const links = new MailedLinkTokens(createMemoryKeyValue(), EMAIL_CHANGE_LINKS);
    const claim = (email: string) => JSON.stringify({ userId: 'user-1', email });
    const older = await links.issue('user-1', claim('old@example.com'));
    const newer = await links.issue('user-1', claim('new@example.com'));
    expect(await links.peek(older)).toBeNull();
    expect(await links.peek(newer)).toBe(claim('new@example.com'));
    await links.retire('user-1');
    expect(await links.consume(newer)).toBeNull();
    const other = await links.issue('user-2', JSON.stringify({ userId: 'user-2', email: 'b@example.com' }));
    expect(await links.consume(other)).toBe(JSON.stringify({ userId: 'user-2', email: 'b@example.com' }));
  });
});
