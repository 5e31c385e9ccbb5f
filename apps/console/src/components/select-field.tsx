import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

/** A labelled select with the server's message for it beside it, as `Field` does for inputs. */
export function SelectField({ label, error, children, ...select }: { label: string; error?: string | undefined; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...select}>
        {children}
      </select>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
