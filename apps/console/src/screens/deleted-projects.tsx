import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { Day } from '../components/day';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';

type DeletedProject = paths['/api/projects/deleted']['get']['responses'][200]['content']['application/json']['items'][number];

const loadDeleted = async (): Promise<DeletedProject[]> => (await unwrap(api.GET('/api/projects/deleted'))).items;

/**
 * *Recently deleted*: the deleted projects the user may restore (`GET /api/projects/deleted`), each
 * with the day its restore period ends and a Restore button. Nothing shows while there are none.
 */
export function DeletedProjects({ onRestored }: { onRestored: (name: string) => void }) {
  const deleted = useLoad(loadDeleted, 'deleted projects');
  const [error, setError] = useState<unknown>();

  const restore = async (project: DeletedProject) => {
    try {
      await unwrap(api.POST('/api/projects/{projectId}/restore', { params: { path: { projectId: project.id } } }));
      setError(undefined);
      deleted.reload();
      onRestored(project.name);
    } catch (failure) {
      setError(failure);
    }
  };

  if (!deleted.error && !deleted.value?.length) return null;
  return (
    <section aria-label="Recently deleted">
      <h2>Recently deleted</h2>
      <LoadError error={deleted.error ?? error} />
      {deleted.value && deleted.value.length > 0 && (
        <LabelledTable label="Recently deleted projects" headers={['Project', 'Deleted', 'Restorable until', '']}>
          {deleted.value.map((project) => (
            <tr key={project.id}>
              <th scope="row">{project.name}</th>
              <td>
                <Day at={project.deletedAt} />
              </td>
              <td>
                <Day at={project.restorableUntil} />
              </td>
              <td>
                <button type="button" aria-label={`Restore ${project.name}`} onClick={() => void restore(project)}>
                  Restore
                </button>
              </td>
            </tr>
          ))}
        </LabelledTable>
      )}
    </section>
  );
}
