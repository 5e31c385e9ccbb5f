import type { Principal } from '@platform/contracts';
import Negotiator from 'negotiator';

export type MessageLanguage = 'en' | 'de';

const SUPPORTED: MessageLanguage[] = ['en', 'de'];

/**
 * The language of an AI error message: the user's profile language when it is one we have,
 * else the best match of `Accept-Language`, else English.
 */
export function messageLanguage(principal: Principal, acceptLanguage: string | undefined): MessageLanguage {
  if (principal.kind === 'user' && principal.language) {
    const profile = principal.language.toLowerCase().split('-')[0];
    if (SUPPORTED.includes(profile as MessageLanguage)) return profile as MessageLanguage;
  }
  if (!acceptLanguage) return 'en';
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(SUPPORTED);
  return preferred === 'de' ? 'de' : 'en';
}

const MESSAGES = {
  disabled: {
    en: 'AI features are disabled for this project. A project owner can enable them in the project settings.',
    de: 'KI-Funktionen sind für dieses Projekt deaktiviert. Ein Projektinhaber kann sie in den Projekteinstellungen aktivieren.',
  },
  notConfigured: {
    en: 'AI is not configured on this server.',
    de: 'KI ist auf diesem Server nicht eingerichtet.',
  },
} satisfies Record<string, Record<MessageLanguage, string>>;

export function aiMessage(key: keyof typeof MESSAGES, language: MessageLanguage): string {
  return MESSAGES[key][language];
}
