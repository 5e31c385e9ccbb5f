import { z } from 'zod';
import type { WidgetRegistration } from '../registration';

/** GameWorld configuration; the defaults are the spec's (an 800 by 600 px canvas). */
export const gameWorldConfigurationSchema = z.object({
  mapId: z.string().min(1).describe('Id of the GameMap document to show'),
  width: z.number().int().positive().default(800).describe('Canvas width in px'),
  height: z.number().int().positive().default(600).describe('Canvas height in px'),
  enableSound: z.boolean().default(true).describe('Play sound'),
  showMinimap: z.boolean().default(false).describe('Show a minimap'),
  playerSprite: z.string().min(1).optional().describe('URL of the player sprite; the built-in sprite when absent'),
  movementType: z.enum(['free', 'grid']).default('free').describe('Free movement or tile by tile'),
});

export type GameWorldConfiguration = z.infer<typeof gameWorldConfigurationSchema>;

/** Not offered in the catalogue: the spec names no category or catalogue visibility for it. */
export const gameWorldRegistration: WidgetRegistration = {
  name: 'GameWorld',
  title: { en: 'Game world', de: 'Spielwelt' },
  description: { en: 'A playable 2D world drawn from a GameMap document.', de: 'Eine spielbare 2D-Welt aus einem GameMap-Dokument.' },
  category: 'games',
  visibleInCatalog: false,
  componentLoader: '@platform/widgets-ui/game-world',
  dataSchema: gameWorldConfigurationSchema,
};
