import type { Principal } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { messageLanguage } from './language';

const user = (language?: string): Principal => ({ kind: 'user', userId: 'u', sessionId: 's', platformOwner: false, ...(language ? { language } : {}) });

describe('messageLanguage', () => {
  it.each([
    { case: 'profile de wins over the header', principal: user('de'), header: 'en-US,en', expected: 'de' },
    { case: 'profile de-AT counts as German', principal: user('de-AT'), header: undefined, expected: 'de' },
    { case: 'profile en wins over a German header', principal: user('en'), header: 'de', expected: 'en' },
    { case: 'unsupported profile language falls back to the header', principal: user('fr'), header: 'de-DE,de;q=0.9', expected: 'de' },
    { case: 'header de-CH', principal: user(), header: 'de-CH', expected: 'de' },
    { case: 'header prefers English by weight', principal: user(), header: 'de;q=0.5,en;q=0.9', expected: 'en' },
    { case: 'header without a supported language', principal: user(), header: 'fr,it', expected: 'en' },
    { case: 'no profile, no header', principal: user(), header: undefined, expected: 'en' },
    { case: 'anonymous with a German header', principal: { kind: 'anonymous' } as Principal, header: 'de', expected: 'de' },
  ])('$case', ({ principal, header, expected }) => {
    expect(messageLanguage(principal, header)).toBe(expected);
  });
});
