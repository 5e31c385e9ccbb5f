/** The change description keys the audit service answers, in words. */
const CHANGE_WORDS: Record<string, string> = {
  'audit.created': 'created',
  'audit.updated': 'updated',
  'audit.deleted': 'deleted',
  'audit.restored': 'restored',
  'audit.accessChanged': 'access changed',
  'audit.published': 'published',
};

export function changeInWords(changeDescription: string): string {
  return CHANGE_WORDS[changeDescription] ?? changeDescription;
}
