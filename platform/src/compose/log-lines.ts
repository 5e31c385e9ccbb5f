import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { styleText } from 'node:util';

type Color = Parameters<typeof styleText>[0];

const serviceColors: Color[] = ['cyan', 'magenta', 'yellow', 'green', 'blue', 'red', 'white'];
const levelNames: Record<number, [string, Color]> = {
  10: ['TRACE', 'gray'],
  20: ['DEBUG', 'gray'],
  30: ['INFO', 'green'],
  40: ['WARN', 'yellow'],
  50: ['ERROR', 'red'],
  60: ['FATAL', 'red'],
};
/** pino fields the prefix or the level column already say. */
const implicitFields = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/** Calls `onLine` for every complete line the stream emits. */
export function forEachLine(stream: Readable, onLine: (line: string) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
}

/** A pino JSON line as `HH:MM:SS LEVEL message {other fields}`; any other line unchanged. */
export function prettyLogLine(line: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || typeof (entry as { level?: unknown }).level !== 'number') return line;
  const { level, time, msg } = entry as { level: number; time?: number; msg?: string };
  const [name, color] = levelNames[level] ?? [String(level), 'white'];
  const rest = Object.fromEntries(Object.entries(entry).filter(([key]) => !implicitFields.has(key)));
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
  return `${styleText('gray', clock)} ${styleText(color, name.padEnd(5))} ${msg ?? ''}${fields}`;
}

/**
 * Writes each service's lines with its name as prefix, like `docker compose up` does. In a
 * terminal the names are coloured and pino's JSON lines are made readable; otherwise the lines
 * stay as the services wrote them, so they can be piped to a log tool.
 */
export function prefixedLineWriter(options: { names: readonly string[]; pretty: boolean; write: (text: string) => void }): (service: string, line: string) => void {
  const width = Math.max(...options.names.map((name) => name.length));
  const colorOf = new Map(options.names.map((name, index) => [name, serviceColors[index % serviceColors.length]!]));
  return (service, line) => {
    const prefix = `${service.padEnd(width)} |`;
    if (!options.pretty) return options.write(`${prefix} ${line}\n`);
    options.write(`${styleText(colorOf.get(service) ?? 'white', prefix)} ${prettyLogLine(line)}\n`);
  };
}
