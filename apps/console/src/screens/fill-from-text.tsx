import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { TextField } from '../components/field';

/**
 * *Fill from text* (AI on): the model reads pasted text into a document of the type (POST
 * .../ai-extract, checked against the type's schema by the server); the fields land in the new
 * document's form to check before saving. Nothing is stored until then.
 */
export function FillFromText({ projectId, typeId, onFilled }: { projectId: string; typeId: string; onFilled: (fields: Record<string, unknown>) => void }) {
  const [error, setError] = useState<string>();
  const [reading, setReading] = useState(false);
  const fill = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('text')).trim();
    setError(undefined);
    setReading(true);
    try {
      const { data } = await unwrap(api.POST('/api/projects/{projectId}/types/{typeId}/ai-extract', { params: { path: { projectId, typeId } }, body: { text } }));
      onFilled(data);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setReading(false);
    }
  };
  return (
    <form aria-label="Fill from text" className="fill-from-text" onSubmit={(event) => void fill(event)} noValidate>
      <h3 className="form-title">Fill from text with AI</h3>
      <TextField label="Text to read (an email, a note, a line of a list)" name="text" rows={3} />
      {error && (
        <p role="alert" className="form-error">
          Not filled: {error}
        </p>
      )}
      <button type="submit" disabled={reading}>
        {reading ? 'Reading…' : 'Fill the form'}
      </button>
    </form>
  );
}
