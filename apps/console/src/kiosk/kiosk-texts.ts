import type { RefusedRule } from '@platform/sync-client';

/** The kiosk's own words (the widget configures the rest); English is the fallback for other languages. */
export interface KioskTexts {
  title: string;
  name: string;
  nameMissing: string;
  /** The name the visitor type's schema refused, with the reason: nameRuleWords' words, else the server's (English). */
  nameRefused: (reason: string) => string;
  /** Why a name breaks the rules a name field has: its length (`maxLength`, `minLength`) and its `pattern`. */
  nameAtMost: (limit: number) => string;
  nameAtLeast: (limit: number) => string;
  nameBadCharacters: string;
  keepFor: string;
  checkIn: string;
  checkOut: string;
  checkedInHere: string;
  nobodyCheckedIn: string;
  checkedIn: (name: string) => string;
  checkedOut: (name: string) => string;
  alreadyGone: (name: string) => string;
}

const english: KioskTexts = {
  title: 'Visitor check-in',
  name: 'Your name',
  nameMissing: 'Please enter your name.',
  nameRefused: (reason) => `Please check your name: it ${reason}.`,
  nameAtMost: (limit) => `may have at most ${limit} characters`,
  nameAtLeast: (limit) => `needs at least ${limit} characters`,
  nameBadCharacters: 'contains characters this kiosk does not accept',
  keepFor: 'Keep my data for',
  checkIn: 'Check in',
  checkOut: 'Check out',
  checkedInHere: 'Checked in at this kiosk',
  nobodyCheckedIn: 'Nobody is checked in at this kiosk.',
  checkedIn: (name) => `Welcome, ${name}: you are checked in.`,
  checkedOut: (name) => `Goodbye, ${name}: you are checked out.`,
  alreadyGone: (name) => `${name} is no longer registered.`,
};

const german: KioskTexts = {
  title: 'Besucher-Check-in',
  name: 'Ihr Name',
  nameMissing: 'Bitte geben Sie Ihren Namen ein.',
  nameRefused: (reason) => `Bitte prüfen Sie Ihren Namen (${reason}).`,
  nameAtMost: (limit) => `höchstens ${limit} Zeichen`,
  nameAtLeast: (limit) => `mindestens ${limit} Zeichen`,
  nameBadCharacters: 'er enthält Zeichen, die dieser Kiosk nicht annimmt',
  keepFor: 'Meine Daten aufbewahren für',
  checkIn: 'Einchecken',
  checkOut: 'Auschecken',
  checkedInHere: 'An diesem Kiosk eingecheckt',
  nobodyCheckedIn: 'An diesem Kiosk ist niemand eingecheckt.',
  checkedIn: (name) => `Willkommen, ${name}: Sie sind eingecheckt.`,
  checkedOut: (name) => `Auf Wiedersehen, ${name}: Sie sind ausgecheckt.`,
  alreadyGone: (name) => `${name} ist nicht mehr registriert.`,
};

export const KIOSK_LANGUAGES: Readonly<Record<string, KioskTexts>> = { en: english, de: german };

export function kioskTexts(language: string): KioskTexts {
  return KIOSK_LANGUAGES[language] ?? KIOSK_LANGUAGES[language.split('-')[0]!] ?? english;
}

/** The kiosk's words for the schema rule a refused name broke; undefined for a rule it has no words for (the server's are shown). */
export function nameRuleWords(words: KioskTexts, rule: RefusedRule): string | undefined {
  const limit = typeof rule.params.limit === 'number' ? rule.params.limit : undefined;
  if (rule.keyword === 'maxLength' && limit !== undefined) return words.nameAtMost(limit);
  if (rule.keyword === 'minLength' && limit !== undefined) return words.nameAtLeast(limit);
  if (rule.keyword === 'pattern') return words.nameBadCharacters;
  return undefined;
}
