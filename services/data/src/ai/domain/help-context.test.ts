import { describe, expect, it } from 'vitest';
import { helpSystemPrompt, openApiSummary } from './help-context';

describe('openApiSummary', () => {
  it('lists one line per operation, sorted by path', () => {
    const summary = openApiSummary({
      paths: {
        '/api/projects/{projectId}/types': { post: { summary: 'Create a type' }, get: { summary: 'List types' } },
        '/api/health': { get: {} },
      },
    });
    expect(summary).toBe(['GET /api/health', 'GET /api/projects/{projectId}/types: List types', 'POST /api/projects/{projectId}/types: Create a type'].join('\n'));
  });

  it('is empty for a document without paths', () => {
    expect(openApiSummary({})).toBe('');
  });
});

describe('helpSystemPrompt', () => {
  it('holds every document under its title when they fit', () => {
    const prompt = helpSystemPrompt([{ title: 'llm.txt', text: '# Platform' }, { title: 'HTTP API', text: 'GET /api/health' }], 10_000);
    expect(prompt).toContain('help assistant');
    expect(prompt).toContain('=== llm.txt ===\n# Platform');
    expect(prompt).toContain('=== HTTP API ===\nGET /api/health');
  });

  it('stays within the budget, cutting the later documents', () => {
    const prompt = helpSystemPrompt([{ title: 'a', text: 'x'.repeat(400) }, { title: 'b', text: 'y'.repeat(5_000) }], 1_000);
    expect(prompt.length).toBeLessThanOrEqual(1_000);
    expect(prompt).toContain('x'.repeat(400));
    expect(prompt).toContain('[truncated]');
  });
});
