import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

const environmentSchema = z.union([z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])), z.array(z.string())]);

const healthcheckSchema = z.object({
  test: z.union([z.tuple([z.enum(['CMD', 'CMD-SHELL'])], z.string()), z.string()]),
  interval: z.string().optional(),
  timeout: z.string().optional(),
  retries: z.number().int().positive().optional(),
  start_period: z.string().optional(),
});

const dependsOnSchema = z.union([z.array(z.string()), z.record(z.string(), z.object({ condition: z.enum(['service_started', 'service_healthy', 'service_completed_successfully']) }))]);

/** The part of the compose specification this repository's file uses, strictly: a typo is an error. */
export const composeServiceSchema = z.strictObject({
  image: z.string(),
  build: z.string().optional(),
  command: z.array(z.string()).optional(),
  restart: z.enum(['no', 'always', 'on-failure', 'unless-stopped']).optional(),
  environment: environmentSchema.optional(),
  ports: z.array(z.string()).optional(),
  volumes: z.array(z.string()).optional(),
  healthcheck: healthcheckSchema.optional(),
  depends_on: dependsOnSchema.optional(),
});

export const composeFileSchema = z
  .object({
    services: z.record(z.string(), composeServiceSchema),
    volumes: z.record(z.string(), z.null()).optional(),
  })
  .catchall(z.unknown())
  .superRefine((file, context) => {
    for (const [name, service] of Object.entries(file.services)) {
      const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const dependency of dependencies) {
        if (!(dependency in file.services)) context.addIssue({ code: 'custom', path: ['services', name, 'depends_on'], message: `names no service: ${dependency}` });
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/') && !(source in (file.volumes ?? {}))) {
          context.addIssue({ code: 'custom', path: ['services', name, 'volumes'], message: `names no declared volume: ${source}` });
        }
      }
    }
  });

export type ComposeFile = z.infer<typeof composeFileSchema>;

/** Reads a compose file with its YAML anchors and merge keys resolved, checked against the schema. */
export async function readComposeFile(path: string): Promise<ComposeFile> {
  return composeFileSchema.parse(parse(await readFile(path, 'utf8'), { merge: true }));
}
