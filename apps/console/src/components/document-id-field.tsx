import { useCollection } from '@platform/sync-react';
import { useId, useMemo } from 'react';
import { documentChoices } from '../documents/document-choices';
import { useSession } from '../session';
import { useTypeClient } from '../sync/use-type-client';
import { Field } from './field';

/**
 * A document id field that offers the type's documents as one types (their titles beside their
 * ids, the most recently changed first), from the type's local copy, the one its documents screen
 * keeps. Any id may still be typed: a deleted document's, for one.
 */
export function DocumentIdField({ projectId, typeId, label, name, error }: { projectId: string; typeId: string; label: string; name: string; error?: string | undefined }) {
  const listId = useId();
  return (
    <>
      <Field label={label} name={name} required spellCheck={false} autoComplete="off" list={listId} placeholder="Choose one of the latest or type any id" error={error} />
      {typeId && <DocumentOptions key={typeId} listId={listId} projectId={projectId} typeId={typeId} />}
    </>
  );
}

function DocumentOptions({ listId, projectId, typeId }: { listId: string; projectId: string; typeId: string }) {
  const { user } = useSession();
  const { client } = useTypeClient(user!.id, projectId, typeId);
  return <datalist id={listId}>{client && <Options client={client} typeId={typeId} />}</datalist>;
}

function Options({ client, typeId }: { client: NonNullable<ReturnType<typeof useTypeClient>['client']>; typeId: string }) {
  const documents = useCollection(client, typeId);
  const choices = useMemo(() => documentChoices(typeId, documents), [typeId, documents]);
  return choices.map(({ id, label }) => (
    <option key={id} value={id}>
      {label}
    </option>
  ));
}
