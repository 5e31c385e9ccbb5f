import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { typeOptions } from '../../audit/type-options';
import { DocumentIdField } from '../../components/document-id-field';
import { formErrors, noErrors, type FormErrors } from '../../components/form-errors';
import { SelectField } from '../../components/select-field';
import { useLoad } from '../../components/use-load';
import { useSession } from '../../session';

const FIELDS = ['typeId', 'documentId'] as const;

/**
 * *Run on a document*: the action's owner runs it now on a document of their choice, to try it
 * without writing anything (POST .../runs); the run appears in the table below. Anyone else is
 * told how to become its owner, since a run acts with the owner's rights.
 */
export function RunByHand({ projectId, action, onStarted }: { projectId: string; action: { id: string; ownerId: string; triggers?: Array<{ configuration?: { typeId?: string } }> }; onStarted: () => void }) {
  const { user } = useSession();
  const types = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/types', { params: { path: { projectId } } }))).items, projectId);
  const triggerType = action.triggers?.find((trigger) => trigger.configuration?.typeId)?.configuration?.typeId;
  const [typeId, setTypeId] = useState<string>();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [started, setStarted] = useState<string>();

  if (user?.id !== action.ownerId) {
    return <p className="run-note">Only the action’s owner (whoever saved it last) can run it by hand, since it runs with their rights. Save it in the editor to make it yours.</p>;
  }
  const chosenType = typeId ?? triggerType ?? types.value?.[0]?.id ?? '';
  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const documentId = String(new FormData(event.currentTarget).get('documentId')).trim();
    setStarted(undefined);
    try {
      await unwrap(api.POST('/api/projects/{projectId}/actions/{actionId}/runs', { params: { path: { projectId, actionId: action.id } }, body: { typeId: chosenType, documentId } }));
      setErrors(noErrors);
      setStarted(`Started on ${chosenType}/${documentId}: the run shows below with each block’s result.`);
      onStarted();
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  };
  return (
    <form className="inline-form" aria-label="Run on a document" onSubmit={(event) => void run(event)} noValidate>
      <h2 className="form-title">Run on a document</h2>
      <SelectField label="Type" value={chosenType} error={errors.fields.typeId} onChange={(event) => setTypeId(event.target.value)}>
        {typeOptions(types.value ?? []).map(({ id, label }) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
      </SelectField>
      <DocumentIdField label="Document id" name="documentId" projectId={projectId} typeId={chosenType} error={errors.fields.documentId} />
      <button type="submit">Run on this document</button>
      <p className="run-note">It runs on the document’s latest change (its deletion, for a deleted document), as that change would have run it, whatever the triggers say.</p>
      {errors.form && (
        <p role="alert" className="form-error">
          Not run: {errors.form}
        </p>
      )}
      {started && <p role="status">{started}</p>}
    </form>
  );
}
