import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError, type Logger } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Where the guides of the repository's `docs/` are served: `/docs/interface.md`, ... */
export const GUIDES_PREFIX = '/docs';

/** The guides (and the widgets' llm.txt) are public static text: no session is loaded for them. */
export const isGuidePath = (path: string): boolean => path.startsWith(`${GUIDES_PREFIX}/`);

/** A guide's file name; nothing else in the directory (or outside it) is reachable. */
const GUIDE_NAME = /^[a-z][a-z0-9-]*\.md$/;

/**
 * Guides that live outside `docs/` in the repository, by the name they are served under and their
 * path from `docs/`. A file of that name in the root wins (the image copies them into its docs).
 * Links to that path in the served guides are pointed at the name.
 */
export const OUTSIDE_GUIDES: Readonly<Record<string, string>> = {
  'sync-client.md': '../libs/sync-client/README.md',
};

/** The guides found in `root` at start, by file name. */
function readGuides(root: string, logger: Logger): Map<string, string> {
  const guides = new Map<string, string>();
  if (!existsSync(root)) {
    logger.warn({ root }, 'guides not found: /docs/*.md answers 404 (set GUIDES_DIR to the docs directory)');
    return guides;
  }
  for (const name of readdirSync(root).sort()) if (GUIDE_NAME.test(name)) guides.set(name, readFileSync(join(root, name), 'utf8'));
  for (const [name, path] of Object.entries(OUTSIDE_GUIDES)) {
    const file = resolve(root, path);
    if (!guides.has(name) && existsSync(file)) guides.set(name, readFileSync(file, 'utf8'));
  }
  // A guide links such a file by its path in the repository (right in a clone); served, the link
  // names the guide beside it instead, which is where that path would lead nowhere.
  for (const [guide, text] of guides) {
    let served = text;
    for (const [name, path] of Object.entries(OUTSIDE_GUIDES)) if (guides.has(name)) served = served.replaceAll(`](${path})`, `](${name})`).replaceAll(`](${path}#`, `](${name}#`);
    guides.set(guide, served);
  }
  return guides;
}

/**
 * `GET /docs/{guide}.md`: the guides that `/api/docs` and `/llm.txt` link to, read once at start.
 * Served as `text/markdown; charset=utf-8` (RFC 7763), what they are.
 */
export function registerGuides(app: FastifyInstance, options: { root: string; logger: Logger }): void {
  const guides = readGuides(options.root, options.logger);
  app.withTypeProvider<ZodTypeProvider>().get(
    `${GUIDES_PREFIX}/:guide`,
    {
      schema: {
        tags: ['platform'],
        summary: "A guide of the repository's docs/ directory, as Markdown text (linked from /api/docs and /llm.txt)",
        security: [],
        params: z.object({ guide: z.string().max(64).describe('The guide\'s file name, e.g. interface.md') }),
        response: { 200: z.string().describe('text/markdown; charset=utf-8') },
      },
      serializerCompiler: () => (data) => data as string,
    },
    async (request, reply) => {
      const text = guides.get(request.params.guide);
      if (text === undefined) throw new AppError(404, 'GATEWAY_GUIDE_NOT_FOUND', `No guide named ${request.params.guide}; the guides: ${[...guides.keys()].join(', ')}`);
      return reply.type('text/markdown; charset=utf-8').send(text);
    },
  );
}
