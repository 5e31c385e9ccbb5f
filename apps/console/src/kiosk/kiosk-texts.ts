import type { RefusedRule } from '@platform/sync-client';

/** A refused rule's numeric limit (`maxLength`'s and `minLength`'s `limit`), when it has one. */
export function ruleLimit(rule: RefusedRule): number | undefined {
  return typeof rule.params.limit === 'number' ? rule.params.limit : undefined;
}

/** The kiosk's own words (the widget configures the rest); English is the fallback for other languages. */
export interface KioskTexts {
  title: string;
  name: string;
  nameMissing: string;
  /** The name the visitor type's schema refused, with the reason: nameRule's words, else the server's (English). */
  nameRefused: (reason: string) => string;
  /** Why a name breaks the visitor type's rule, for the rules a name field has (its length, its pattern); undefined for others. */
  nameRule: (rule: RefusedRule) => string | undefined;
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
  nameRule: (rule) => {
    const limit = ruleLimit(rule);
    if (rule.keyword === 'maxLength' && limit !== undefined) return `may have at most ${limit} characters`;
    if (rule.keyword === 'minLength' && limit !== undefined) return `needs at least ${limit} characters`;
    if (rule.keyword === 'pattern') return 'contains characters this kiosk does not accept';
    return undefined;
  },
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
  nameRule: (rule) => {
    const limit = ruleLimit(rule);
    if (rule.keyword === 'maxLength' && limit !== undefined) return `höchstens ${limit} Zeichen`;
    if (rule.keyword === 'minLength' && limit !== undefined) return `mindestens ${limit} Zeichen`;
    if (rule.keyword === 'pattern') return 'er enthält Zeichen, die dieser Kiosk nicht annimmt';
    return undefined;
  },
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
