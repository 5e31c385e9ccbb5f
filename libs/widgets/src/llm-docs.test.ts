import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { platformLlmText, widgetsLlmText } from './llm-docs';
import { createWidgetRegistry, widgetRegistry } from './registry';

const headings = (text: string) => [...text.matchAll(/^## (\S+)$/gm)].map((match) => match[1]);

describe('llm.txt documents', () => {
  it('the widget document has a section for exactly the catalogue widgets, with title, description and category', () => {
    const text = widgetsLlmText(widgetRegistry);
    expect(headings(text)).toEqual(['CheckIn', 'StreamVideo']);
    expect(text).not.toContain('GameWorld');
    expect(text).toContain('- Title: Stream video');
    expect(text).toContain('- Description: Embeds a streamed video player from its URL.');
    expect(text).toContain('- Category: content');
  });

  it('lists each configuration property with its type and default', () => {
    const text = widgetsLlmText(widgetRegistry);
    for (const flag of ['autoplay', 'loop', 'muted', 'preload', 'responsive']) expect(text).toContain(`- ${flag}: boolean; default true.`);
    expect(text).toContain('- url: string; default "".');
    expect(text).toContain('- scannerEnabled: boolean; default false.');
    expect(text).toMatch(/- deletionPeriods: array of \{ duration: number, label: InlineTranslation.*isDefault: boolean \}; default \[\{"duration":2419200000/);
    expect(text).toContain('- title: InlineTranslation (object of language code to text, never a plain string); optional, default none.');
    expect(text).toContain('- visitorTypeId: string; optional, default none.');
  });

  it('/llm.txt says what the platform is and links every catalogue widget to the catalogue', () => {
    const text = platformLlmText(widgetRegistry);
    expect(text.startsWith('# Platform\n\n> A multi-tenant platform')).toBe(true);
    expect(text).toContain('[Widget catalogue](/docs/widgets/llm.txt)');
    const linked = [...text.matchAll(/^- \[(\w+)\]\(\/docs\/widgets\/llm\.txt#\w+\)/gm)].map((match) => match[1]);
    expect(linked).toEqual(['CheckIn', 'StreamVideo']);
  });

  it('follows the registry: a newly registered catalogue widget appears in both, a hidden one in neither', () => {
    const registry = createWidgetRegistry();
    registry.register({
      name: 'Countdown',
      title: { en: 'Countdown' },
      description: { en: 'Counts down to a moment.' },
      category: 'content',
      visibleInCatalog: true,
      componentLoader: './countdown',
      dataSchema: z.object({ target: z.number().describe('Unix ms'), showSeconds: z.boolean().default(false) }),
    });
    registry.register({ name: 'Secret', componentLoader: './secret' });
    expect(headings(widgetsLlmText(registry))).toEqual(['CheckIn', 'Countdown', 'StreamVideo']);
    expect(widgetsLlmText(registry)).toContain('- target: number; required. Unix ms.');
    expect(widgetsLlmText(registry)).toContain('- showSeconds: boolean; default false.');
    expect(platformLlmText(registry)).toContain('[Countdown](/docs/widgets/llm.txt#countdown)');
    expect(platformLlmText(registry)).not.toContain('Secret');
  });
});
