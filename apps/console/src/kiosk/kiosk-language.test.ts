import { describe, expect, it } from 'vitest';
import { pickLanguage, translate } from './kiosk-language';

describe('pickLanguage', () => {
  it('takes the first preference offered, exactly or by its base language', () => {
    expect(pickLanguage(['en', 'de'], ['de-DE', 'de', 'en-US'])).toBe('de');
    expect(pickLanguage(['en', 'pt-BR'], ['pt-BR', 'en'])).toBe('pt-BR');
    expect(pickLanguage(['en', 'de'], ['fr-FR', 'de'])).toBe('de');
  });

  it('falls back to English when no preference is offered', () => {
    expect(pickLanguage(['en', 'de'], ['fr-FR', 'it'])).toBe('en');
    expect(pickLanguage([], [])).toBe('en');
  });
});

describe('translate', () => {
  it('answers the language, its base, English, else any text', () => {
    expect(translate({ en: 'Welcome', de: 'Willkommen' }, 'de')).toBe('Willkommen');
    expect(translate({ en: 'Welcome', de: 'Willkommen' }, 'de-AT')).toBe('Willkommen');
    expect(translate({ en: 'Welcome', de: 'Willkommen' }, 'fr')).toBe('Welcome');
    expect(translate({ nl: 'Welkom' }, 'fr')).toBe('Welkom');
    expect(translate(undefined, 'en')).toBeUndefined();
  });
});
