import { describe, expect, it } from 'vitest';
import { kioskTexts, nameRuleWords } from './kiosk-texts';

describe("the kiosk's words for a refused name's rule", () => {
  it('words the length and pattern rules in each language', () => {
    const rules = [
      { keyword: 'maxLength', params: { limit: 40 } },
      { keyword: 'minLength', params: { limit: 2 } },
      { keyword: 'pattern', params: { pattern: '^[A-Za-z ]+$' } },
    ];
    expect(rules.map((rule) => nameRuleWords(kioskTexts('en'), rule))).toEqual(['may have at most 40 characters', 'needs at least 2 characters', 'contains characters this kiosk does not accept']);
    expect(rules.map((rule) => nameRuleWords(kioskTexts('de-DE'), rule))).toEqual(['höchstens 40 Zeichen', 'mindestens 2 Zeichen', 'er enthält Zeichen, die dieser Kiosk nicht annimmt']);
  });

  it('has no words for other rules, or for a length rule without a numeric limit, so the server\'s are shown', () => {
    expect(nameRuleWords(kioskTexts('en'), { keyword: 'type', params: { type: 'string' } })).toBeUndefined();
    expect(nameRuleWords(kioskTexts('en'), { keyword: 'maxLength', params: { limit: '40' } })).toBeUndefined();
  });
});
