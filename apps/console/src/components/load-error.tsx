/** A failed load, said plainly (the session provider handles 401 and 503 on its own). */
export function LoadError({ error }: { error: unknown }) {
  if (!error) return null;
  return <p role="alert" className="form-error">{error instanceof Error ? error.message : String(error)}</p>;
}
