import { describe, expect, it } from 'vitest';
import { prefixedLineWriter, prettyLogLine } from './log-lines';

describe('service log lines', () => {
  it('prefixes each line with the service name, padded to the longest, unchanged outside a terminal', () => {
    const written: string[] = [];
    const write = prefixedLineWriter({ names: ['data', 'publishing'], pretty: false, write: (text) => written.push(text) });
    write('data', '{"level":30,"msg":"up"}');
    write('publishing', 'plain text');
    expect(written).toEqual(['data       | {"level":30,"msg":"up"}\n', 'publishing | plain text\n']);
  });

  it('shows a pino line as time, level, message and its own fields in a terminal', () => {
    const line = prettyLogLine(JSON.stringify({ level: 40, time: Date.UTC(2025, 0, 1, 12, 34, 56), pid: 1, hostname: 'h', name: 'data', msg: 'slow', ms: 12 }));
    expect(line.replace(/\u001b\[\d+m/g, '')).toBe('12:34:56 WARN  slow {"ms":12}');
  });

  it('leaves lines that are not pino JSON as they are', () => {
    expect(prettyLogLine('Error: boom')).toBe('Error: boom');
    expect(prettyLogLine('[1,2]')).toBe('[1,2]');
  });
});
