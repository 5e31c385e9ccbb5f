import type { SyncConflict } from '@platform/sync-client';
import { ApiError } from '../api/client';

/** A failed submit: the message for the field the server named, else for the form as a whole. */
export interface FormErrors {
  fields: Record<string, string>;
  form?: string;
}

export const noErrors: FormErrors = { fields: {} };

/** Places an error beside the field a 400 names (its first path segment), or on the form. */
export function formErrors(error: unknown, knownFields: readonly string[]): FormErrors {
  if (error instanceof ApiError) {
    // Validation issues name the request part first (`body.password`); service errors name the field.
    const field = error.field?.replace(/^(body|querystring|params)\./, '').split('.')[0];
    if (field && knownFields.includes(field)) return { fields: { [field]: error.message } };
    return { fields: {}, form: error.message };
  }
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}

/**
 * A write the SDK queued and the server then refused (a `rejected` conflict): the server's message
 * beside the field it names, in the JSON editor's error when the type has no form, else on the form.
 */
export function refusalErrors(conflict: SyncConflict | undefined, formFields: readonly string[] | undefined): FormErrors {
  const refusal = conflict?.reason === 'rejected' ? conflict.error : undefined;
  if (!refusal) return noErrors;
  const field = refusal.field?.split('.')[0];
  if (field && formFields?.includes(field)) return { fields: { [field]: refusal.message } };
  if (field && !formFields) return { fields: { document: refusal.message } };
  return { fields: {}, form: refusal.message };
}
