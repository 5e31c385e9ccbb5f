import { describe, expect, it } from 'vitest';
import { displayNameVisible, type Privacy, type Viewer } from './name-visibility';

describe('displayNameVisible', () => {
  it.each<[Privacy, Viewer, boolean]>([
    ['public', 'other', true],
    ['public', 'shares-project', true],
    ['projects', 'shares-project', true],
    ['projects', 'other', false],
    ['private', 'shares-project', false],
    ['private', 'other', false],
    ['private', 'self', true],
    ['projects', 'self', true],
  ])('a %s display name to a %s reader: %s', (privacy, viewer, visible) => {
    expect(displayNameVisible(privacy, viewer)).toBe(visible);
  });
});
