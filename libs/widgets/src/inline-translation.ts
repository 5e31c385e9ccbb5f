import { z } from 'zod';

/** A BCP 47-style language tag: `en`, `de`, `pt-BR`, `zh-Hant`. */
const LANGUAGE_CODE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/**
 * Text in several languages, keyed by language code (`{ en: 'Hello', de: 'Hallo' }`). The spec
 * says it is never a plain string, so a string is refused rather than wrapped, and an empty object
 * is refused because it would render as nothing in every language.
 */
export const inlineTranslationSchema = z
  .record(z.string().regex(LANGUAGE_CODE, 'keys are language codes such as en, de or pt-BR'), z.string(), {
    error: (issue) => (issue.input === undefined ? undefined : 'expected an object of language codes to text, such as { "en": "…" }, never a plain string'),
  })
  .refine((value) => Object.keys(value).length > 0, 'needs at least one language')
  .meta({ description: 'Text per language code, e.g. { "en": "…", "de": "…" }' });

export type InlineTranslation = z.infer<typeof inlineTranslationSchema>;
