import { describe, expect, it } from 'vitest';
import { streamVideoConfigurationSchema, streamVideoPlayerUrl } from './stream-video';

const withDefaults = (data: Record<string, unknown>) => streamVideoConfigurationSchema.parse(data);

describe('StreamVideo player URL', () => {
  it.each([
    ['an empty URL renders nothing', { url: '' }, null],
    ['a blank URL renders nothing', { url: '   ' }, null],
    ['flags appended as query parameters', { url: 'https://player.example/v/42' }, 'https://player.example/v/42?autoplay=true&loop=true&muted=true&preload=true&responsive=true'],
    [
      'existing parameters kept, flags as configured',
      { url: 'https://player.example/v/42?t=10', autoplay: false, muted: false },
      'https://player.example/v/42?t=10&autoplay=false&loop=true&muted=false&preload=true&responsive=true',
    ],
    ['a flag already in the URL takes the configured value', { url: 'https://p.example/?loop=false' }, 'https://p.example/?loop=true&autoplay=true&muted=true&preload=true&responsive=true'],
    ['an unparseable URL used as given', { url: 'not a url/%%' }, 'not a url/%%'],
    ['a relative path is unparseable and used as given', { url: '/videos/42' }, '/videos/42'],
  ])('%s', (_case, data, expected) => {
    expect(streamVideoPlayerUrl(withDefaults(data))).toBe(expected);
  });
});
