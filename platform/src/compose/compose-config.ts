import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureGoBinary } from '@platform/testkit/servers';
import { z } from 'zod';

const run = promisify(execFile);
const toolDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../tools/compose-config');

/** Builds tools/compose-config (compose-go, docker compose's own loader) once per source change. */
export function ensureComposeConfigBinary(): Promise<string> {
  return ensureGoBinary(toolDir, 'compose-config');
}

/** The parts of `docker compose config --format json` the checks read; compose writes many more. */
const resolvedProjectSchema = z.looseObject({
  services: z.record(
    z.string(),
    z.looseObject({
      image: z.string().optional(),
      environment: z.record(z.string(), z.string().nullable()).optional(),
      ports: z.array(z.looseObject({ target: z.number(), published: z.string().optional() })).optional(),
      healthcheck: z.looseObject({ test: z.array(z.string()).optional() }).optional(),
    }),
  ),
});

export type ResolvedComposeProject = z.infer<typeof resolvedProjectSchema>;
export type ComposeConfigResult = { valid: true; project: ResolvedComposeProject } | { valid: false; error: string };

/**
 * What `docker compose -f <files> config` answers, without Docker: the project as compose resolves
 * it, or why compose refuses it. `env` is the whole environment compose sees (the caller's own is
 * not passed through); `.env` beside the first file is read as compose reads it.
 */
export async function composeConfig(options: { files: string[]; env?: Record<string, string>; profiles?: string[] }): Promise<ComposeConfigResult> {
  const binary = await ensureComposeConfigBinary();
  const args = [...options.files.flatMap((file) => ['-f', file]), ...(options.profiles ?? []).flatMap((profile) => ['--profile', profile])];
  try {
    const { stdout } = await run(binary, args, { env: { PATH: process.env.PATH ?? '', ...options.env }, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 });
    return { valid: true, project: resolvedProjectSchema.parse(JSON.parse(stdout)) };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr;
    if (typeof stderr === 'string' && stderr.trim()) return { valid: false, error: stderr.trim() };
    throw error;
  }
}
