import { SelectField } from '../components/select-field';

/** A token's access choice, on the new-token and change forms. */
export function TokenAccessField({ defaultValue, error }: { defaultValue: 'read' | 'read-write'; error: string | undefined }) {
  return (
    <SelectField label="Access" name="access" defaultValue={defaultValue} error={error}>
      <option value="read-write">Read and write</option>
      <option value="read">Read only</option>
    </SelectField>
  );
}

/** A checkbox per project the user reaches; none ticked means every project. */
export function TokenProjectsField({ projects, ticked }: { projects: ReadonlyArray<{ id: string; name: string }> | undefined; ticked?: readonly string[] | undefined }) {
  if (!projects || projects.length === 0) return null;
  return (
    <fieldset className="token-projects">
      <legend>Only these projects (none ticked: every project)</legend>
      {projects.map((project) => (
        <label key={project.id}>
          <input type="checkbox" name="projects" value={project.id} defaultChecked={ticked?.includes(project.id) ?? false} /> {project.name}
        </label>
      ))}
    </fieldset>
  );
}

/** The form's access and ticked projects, as the token routes take them. */
export function tokenGrantFields(fields: FormData): { access: 'read' | 'read-write'; projects: string[] } {
  return { access: fields.get('access') === 'read' ? 'read' : 'read-write', projects: fields.getAll('projects').map(String) };
}
