import { describe, expect, it } from 'vitest';
import { initialsAvatarSvg, initialsOf } from './initials-avatar';

describe('initials avatar', () => {
  it('takes the first letters of the first and last word, ignoring markup and punctuation', () => {
    expect(initialsOf('Grace Brewster Hopper')).toBe('GH');
    expect(initialsOf('ada')).toBe('A');
    expect(initialsOf('<script> "quoted" </b>')).toBe('SB');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf(undefined)).toBe('?');
  });

  it('is deterministic per user and never embeds raw markup', () => {
    expect(initialsAvatarSvg('u1', 'A B')).toBe(initialsAvatarSvg('u1', 'A B'));
    expect(initialsAvatarSvg('u1', '<img onerror=x>')).not.toContain('<img');
  });
});
