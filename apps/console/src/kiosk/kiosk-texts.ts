/** The kiosk's own words (the widget configures the rest); English is the fallback for other languages. */
export interface KioskTexts {
  title: string;
  name: string;
  nameMissing: string;
  /** The name the visitor type's schema refused, with the server's reason (in English: the schema's own words). */
  nameRefused: (reason: string) => string;
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
