/** The line a suite's section ends its figures with; what a person writes below it is kept. */
const MEASURED_LINE = /^Measured \d{4}-\d{2}-\d{2} .*$/m;

/**
 * `current` (the text of BENCHMARKS.md) with `suite`'s section between its markers replaced by
 * `figures` (which end with the `Measured ...` line), or appended when it has none. The dated notes
 * people wrote below the section's old `Measured ...` line stay below the new one: a run rewrites
 * its figures, not the record of what earlier runs found.
 */
export function withSection(current: string, suite: string, figures: string): string {
  const start = `<!-- bench:${suite} -->`;
  const end = `<!-- /bench:${suite} -->`;
  const from = current.indexOf(start);
  const to = from < 0 ? -1 : current.indexOf(end, from);
  const notes = to < 0 ? '' : notesOf(current.slice(from + start.length, to));
  const section = `${start}\n${figures.trim()}\n${notes ? `\n${notes}\n` : ''}${end}`;
  if (to < 0) return `${current.trimEnd()}\n\n${section}\n`;
  return `${current.slice(0, from)}${section}${current.slice(to + end.length)}`;
}

function notesOf(section: string): string {
  const measured = MEASURED_LINE.exec(section);
  if (!measured) return '';
  return section.slice(measured.index + measured[0].length).trim();
}
