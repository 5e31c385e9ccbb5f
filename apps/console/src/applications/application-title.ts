import { translate, type Translation } from '../kiosk/kiosk-language';

/** An application's (or version's) title in the browser's language, else its id. */
export const titleOf = (application: { id: string; title?: unknown }): string => translate(application.title as Translation | undefined, navigator.language) ?? application.id;
