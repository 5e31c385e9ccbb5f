import { describe, expect, it } from 'vitest';
import { withSection } from './report-section';

const page = (section: string) => `# Benchmarks\n\n<!-- bench:a -->\n${section}\n<!-- /bench:a -->\n\n<!-- bench:b -->\nB figures\n<!-- /bench:b -->\n`;

describe('withSection', () => {
  it("replaces a suite's figures and keeps the notes written below its Measured line, and the other suites", () => {
    const before = page('## A\n\n| old | 1 |\n\nMeasured 2026-12-01 on 2 cores.\n\nThe run of 2026-12-01: slower, because ...\n\nAn older note.');
    const after = withSection(before, 'a', '## A\n\n| new | 2 |\n\nMeasured 2026-12-04 on 2 cores.');
    expect(after).toBe(page('## A\n\n| new | 2 |\n\nMeasured 2026-12-04 on 2 cores.\n\nThe run of 2026-12-01: slower, because ...\n\nAn older note.'));
  });

  it('writes only the figures where the section has no notes, and appends a section the page lacks', () => {
    const bare = page('## A\n\nMeasured 2026-12-01 on 2 cores.');
    expect(withSection(bare, 'a', '## A\n\nMeasured 2026-12-04 on 2 cores.')).toBe(page('## A\n\nMeasured 2026-12-04 on 2 cores.'));
    expect(withSection('# Benchmarks\n', 'c', 'C figures $& $1')).toBe('# Benchmarks\n\n<!-- bench:c -->\nC figures $& $1\n<!-- /bench:c -->\n');
  });
});
