import { z } from 'zod';

/** `manifest.json` of an export: what `pnpm data:import` reads first. */
export const exportManifestSchema = z.object({
  format: z.literal('platform-ndjson'),
  version: z.literal(1),
  exportedAt: z.string(),
  collections: z.array(
    z.object({
      name: z.string().min(1),
      /** The collection's NDJSON file, beside the manifest: one document per line. */
      file: z.string().regex(/^[A-Za-z0-9%._~!*'()-]+\.ndjson$/),
      documents: z.number().int().min(0),
      indexes: z.array(z.object({ keys: z.record(z.string(), z.union([z.literal(1), z.literal(-1)])), unique: z.boolean().optional() })),
    }),
  ),
});

export type ExportManifest = z.infer<typeof exportManifestSchema>;

export const MANIFEST_FILE = 'manifest.json';

export function fileForCollection(name: string): string {
  return `${encodeURIComponent(name)}.ndjson`;
}
