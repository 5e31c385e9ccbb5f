import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnv } from '@platform/kit';
import { z } from 'zod';

/** What the data tools read: the store the platform uses (MONGO_URL, else the embedded store in DATA_DIR). */
const dataCliEnvSchema = z.object({
  MONGO_URL: z.url().optional(),
  MONGO_DATABASE: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/).default('platform'),
  DATA_DIR: z.string().default('./.data'),
  /** pnpm runs root scripts in the repository root; paths are meant from where they were invoked. */
  INIT_CWD: z.string().default(process.cwd()),
});

export interface DataCliEnv {
  mongoUrl: string | undefined;
  mongoDatabase: string;
  /** Absolute. */
  dataDir: string;
  /** Resolves a path given on the command line from where the command was invoked. */
  pathFromCaller(path: string): string;
}

export function loadDataCliEnv(env: NodeJS.ProcessEnv = process.env): DataCliEnv {
  const parsed = parseEnv(dataCliEnvSchema, env);
  return {
    mongoUrl: parsed.MONGO_URL,
    mongoDatabase: parsed.MONGO_DATABASE,
    dataDir: resolve(parsed.INIT_CWD, parsed.DATA_DIR),
    pathFromCaller: (path) => resolve(parsed.INIT_CWD, path),
  };
}

/** Prints the usage line and exits with 2 (a command-line mistake). */
function exitWithUsage(usage: string): never {
  console.error(`usage: ${usage}`);
  process.exit(2);
}

/** The one directory a data command takes (as given; see `pathFromCaller`); the usage line and exit 2 otherwise. */
export function directoryArgument(usage: string): string {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  const [directory] = positionals;
  if (!directory || positionals.length !== 1) exitWithUsage(usage);
  return directory;
}

/** Runs a data command: a failure is its message on one line and exit 1. */
export function runDataCommand(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error((error as Error).message ?? error);
    process.exit(1);
  });
}
