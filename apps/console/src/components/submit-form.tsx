import type { FormEvent, ReactNode } from 'react';

/**
 * A form whose fields show their own errors: the error no field took (the server's message for
 * the form as a whole) under them, then the submit button and, when given, a status line.
 * The browser's own validation is off so that the server's messages are the ones shown. `danger`
 * marks a submit that destroys something; `beside` goes next to the submit button (a Cancel).
 */
export function SubmitForm(props: { label: string; className: string; submitLabel: string; formError: string | undefined; status?: string; danger?: boolean; beside?: ReactNode; onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>; children: ReactNode }) {
  return (
    <form onSubmit={(event) => void props.onSubmit(event)} className={props.className} noValidate aria-label={props.label}>
      {props.children}
      {props.formError && (
        <p role="alert" className="form-error">
          {props.formError}
        </p>
      )}
      <button type="submit" className={props.danger ? 'danger' : undefined}>
        {props.submitLabel}
      </button>
      {props.beside}
      {props.status !== undefined && <span role="status">{props.status}</span>}
    </form>
  );
}
