import type { SyncConflict } from '@platform/sync-client';
import { ApiError } from '../api/client';

/** A failed submit: the message for the field the server named, else for the form as a whole. */
export interface FormErrors {
  fields: Record<string, string>;
  form?: string;
}

export const noErrors: FormErrors = { fields: {} };

/**
 * Places an error beside the field a 400 names (its first path segment), or on the form. Beside
 * its own field a validation issue reads as what it says of that field ("At least 8 characters"),
 * not as the server's whole message ("Invalid body.password: at least 8 characters"); an issue
 * deeper inside the field (`access.read.userIds`) keeps the whole message, which names the part.
 */
export function formErrors(error: unknown, knownFields: readonly string[]): FormErrors {
  if (error instanceof ApiError) {
    // Validation issues name the request part first (`body.password`); service errors name the field.
    const path = error.field?.replace(/^(body|querystring|params)\./, '');
    const field = path?.split('.')[0];
    if (field && knownFields.includes(field)) {
      const issue = error.firstIssue;
      const own = issue && issue.field === error.field && path === field ? sentence(issue.message) : undefined;
      return { fields: { [field]: own ?? error.message } };
    }
    return { fields: {}, form: error.message };
  }
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}

/**
 * A write the SDK queued and the server then refused (a `rejected` conflict): beside the field it
 * names what it says of that field ("Must be integer", as formErrors does), or the whole message
 * for a part deeper inside the field; in the JSON editor's error (the whole message, which names
 * the field) when the type has no form, else on the form.
 */
export function refusalErrors(conflict: SyncConflict | undefined, formFields: readonly string[] | undefined): FormErrors {
  const refusal = conflict?.reason === 'rejected' ? conflict.error : undefined;
  if (!refusal) return noErrors;
  const field = refusal.field?.split('.')[0];
  if (field && formFields?.includes(field)) {
    const own = refusal.field === field && refusal.fieldMessage ? sentence(refusal.fieldMessage) : undefined;
    return { fields: { [field]: own ?? refusal.message } };
  }
  if (field && !formFields) return { fields: { document: refusal.message } };
  return { fields: {}, form: refusal.message };
}

function sentence(text: string): string | undefined {
  return text ? text[0]!.toUpperCase() + text.slice(1) : undefined;
}

/**
 * A change handed to the SDK, which refuses some before queueing anything (a field the server
 * sets, a name with a dot): its refusal becomes the form's errors, and an accepted one clears
 * them. Answers whether the change was taken.
 */
export async function takenBySdk(change: () => Promise<unknown>, setErrors: (errors: FormErrors) => void): Promise<boolean> {
  try {
    await change();
  } catch (error) {
    setErrors(formErrors(error, []));
    return false;
  }
  setErrors(noErrors);
  return true;
}
