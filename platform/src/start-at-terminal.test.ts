import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const repository = resolve(__dirname, '../..');
const PRETTY_LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR) \([a-z,]+\): /;
const CTRL_C = '\x03';

interface Terminal {
  child: ChildProcess;
  /** Everything the terminal showed so far, colours removed, one entry per line. */
  lines(): string[];
  waitFor(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

/**
 * Runs a command as a person does in a terminal: under a pseudo-terminal (util-linux `script`),
 * so standard output is a TTY, in bash as an interactive user's shell; keys typed go to its stdin.
 */
function inTerminal(command: string, env: Record<string, string>): Terminal {
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: repository,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SHELL: '/bin/bash', TERM: 'xterm', LOG_LEVEL: 'info', ...env },
  });
  let shown = '';
  const watchers: Array<() => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    for (const watcher of watchers) watcher();
  });
  const lines = () => stripVTControlCharacters(shown).split(/\r?\n/);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((found, failed) => {
      const look = () => {
        const line = lines().find((candidate) => pattern.test(candidate));
        if (line !== undefined) found(line);
      };
      watchers.push(look);
      look();
      void exited.then((code) => failed(new Error(`exited ${code} before showing ${pattern}:\n${lines().join('\n')}`)));
    });
  return { child, lines, waitFor, exited };
}

describe('pnpm start at a terminal', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  async function dataDirectory(): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), 'terminal-'));
    cleanup.push(() => rm(directory, { recursive: true, force: true }));
    return directory;
  }

  function track(terminal: Terminal): Terminal {
    cleanup.push(async () => {
      if (terminal.child.exitCode === null) terminal.child.kill('SIGKILL');
    });
    return terminal;
  }

  it('shows readable lines, the promotion link as a full URL ending its line, and ends quietly with 0 on Ctrl-C', async () => {
    const terminal = track(inTerminal('pnpm start', { PORT: '0', DATA_DIR: await dataDirectory() }));
    const listening = await terminal.waitFor(/platform started/);
    expect(listening).toMatch(PRETTY_LINE);
    const url = /^ {4}url: "(http:\/\/127\.0\.0\.1:\d+)"$/.exec(await terminal.waitFor(/^ {4}url: "/))![1]!;
    // Where to go next, on lines of their own.
    expect(await terminal.waitFor(/^ {4}console: "/)).toBe(`    console: "${url}/console/"`);
    expect(await terminal.waitFor(/^ {4}apiDocs: "/)).toBe(`    apiDocs: "${url}/api/docs"`);

    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@example.org', password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    const promotion = await terminal.waitFor(/Promote yourself to platform owner: /);
    const link = new RegExp(`^\\[[^\\]]+\\] WARN \\([a-z,]+\\): Promote yourself to platform owner: (${url}/api/admin/dev/platform-owner/[0-9a-f]{64})$`).exec(promotion);
    expect(link, promotion).not.toBeNull();
    expect((await fetch(link![1]!)).status).toBe(200);
    expect(terminal.lines().filter((line) => line.startsWith('{'))).toEqual([]);

    terminal.child.stdin!.write(CTRL_C);
    expect(await terminal.exited).toBe(0);
    expect(terminal.lines().join('\n')).not.toContain('ELIFECYCLE');
    // The terminal echoes the key as ^C before the next line.
    expect(terminal.lines().some((line) => /^(\^C)?\[[^\]]+\] INFO \([a-z,]+\): shutting down$/.test(line))).toBe(true);
  }, 120_000);

  it('keeps JSON lines at a terminal in production (for a collector reading the console)', async () => {
    const terminal = track(
      inTerminal(`exec ${process.execPath} --import tsx platform/src/main.ts`, {
        NODE_ENV: 'production',
        PRINCIPAL_SECRET: 'a-production-secret-of-at-least-32-characters',
        PORT: '0',
        DATA_DIR: await dataDirectory(),
      }),
    );
    const started = await terminal.waitFor(/"msg":"platform started"/);
    expect(JSON.parse(started)).toMatchObject({ level: 30, msg: 'platform started', kv: 'embedded' });
    terminal.child.stdin!.write(CTRL_C);
    expect(await terminal.exited).toBe(0);
  }, 120_000);
});
