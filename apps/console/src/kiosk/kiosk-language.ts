/** Text per language code, as the CheckIn widget configures it (`{ en: 'Welcome', de: 'Willkommen' }`). */
export type Translation = Record<string, string>;

const baseOf = (tag: string): string => tag.split('-')[0]!.toLowerCase();

/**
 * The language to show: the first of the browser's preferences (`navigator.languages`) that one of
 * `available` has, exactly or by its base language (`de-DE` takes `de`), else English.
 */
export function pickLanguage(available: Iterable<string>, preferred: readonly string[]): string {
  const offered = [...available];
  for (const tag of preferred) {
    const exact = offered.find((language) => language.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = offered.find((language) => language.toLowerCase() === baseOf(tag));
    if (base) return base;
  }
  return 'en';
}

/** A translation's text in `language`: that language, its base language, English, else the first text it has. */
export function translate(text: Translation | undefined, language: string): string | undefined {
  if (!text) return undefined;
  return text[language] ?? text[baseOf(language)] ?? text.en ?? Object.values(text)[0];
}
