import { z } from 'zod';
import type { WidgetRegistration } from '../registration';

/** StreamVideo configuration: a player URL and five player flags, all on by default. */
export const streamVideoConfigurationSchema = z.object({
  url: z.string().default('').describe('Player URL of the stream; the widget renders nothing while empty'),
  autoplay: z.boolean().default(true).describe('Start playing at once'),
  loop: z.boolean().default(true).describe('Start again at the end'),
  muted: z.boolean().default(true).describe('Start without sound'),
  preload: z.boolean().default(true).describe('Load before playing'),
  responsive: z.boolean().default(true).describe('Fill the width of its slot'),
});

export type StreamVideoConfiguration = z.infer<typeof streamVideoConfigurationSchema>;

export const STREAM_VIDEO_FLAGS = ['autoplay', 'loop', 'muted', 'preload', 'responsive'] as const;

export const streamVideoRegistration: WidgetRegistration = {
  name: 'StreamVideo',
  title: { en: 'Stream video', de: 'Stream-Video' },
  description: { en: 'Embeds a streamed video player from its URL.', de: 'Bettet einen Video-Stream-Player über seine URL ein.' },
  category: 'content',
  visibleInCatalog: true,
  componentLoader: '@platform/widgets-ui/stream-video',
  dataSchema: streamVideoConfigurationSchema,
};

/**
 * The URL the player is loaded from: null for an empty URL (the widget renders nothing), the URL
 * with the five flags appended as query parameters when it parses, and the URL exactly as given
 * when it does not (the spec: an unparseable URL is used as given).
 */
export function streamVideoPlayerUrl(configuration: StreamVideoConfiguration): string | null {
  const raw = configuration.url.trim();
  if (raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return configuration.url;
  }
  for (const flag of STREAM_VIDEO_FLAGS) parsed.searchParams.set(flag, String(configuration[flag]));
  return parsed.toString();
}
