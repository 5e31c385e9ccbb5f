import { describe, expect, it } from 'vitest';
import { tracingErrorReporter } from './tracing-errors';

describe('tracing errors as log lines', () => {
  it('writes the first at once, then at most one a minute saying how many it left out', () => {
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
    let now = 1_000_000;
    const report = tracingErrorReporter({ warn: (fields, message) => lines.push({ fields: fields as Record<string, unknown>, message }) }, () => now);
    const refused = new Error('collector refused');
    report(refused);
    now += 10_000;
    report(new Error('again'));
    report(new Error('and again'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({ fields: { err: refused }, message: expect.stringContaining('trace export failed') });
    now += 50_000;
    const later = new Error('still down');
    report(later);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.fields).toEqual({ err: later, suppressed: 2 });
    now += 60_000;
    report(refused);
    expect(lines[2]?.fields).toEqual({ err: refused });
  });
});
