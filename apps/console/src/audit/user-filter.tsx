import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { useLoad } from '../components/use-load';
import { authorName } from '../history/authors';
import { SelectField } from '../components/select-field';

interface Person {
  userId: string;
  name: string;
}

/** The project's members with their display names, as the caller may see them. */
async function loadMembers(projectId: string): Promise<Person[]> {
  const { items } = await unwrap(api.GET('/api/projects/{projectId}/members', { params: { path: { projectId } } }));
  return Promise.all(items.map(async (member) => ({ userId: member.userId, name: await authorName(member.userId) })));
}

/**
 * The trail's user filter: a choice among the project's members, or, for a member who may not list
 * them (the members list needs read permission on the project), the user id typed in.
 */
export function UserFilter({ projectId, userId, error, onChange }: { projectId: string; userId: string | undefined; error: string | undefined; onChange: (userId: string | undefined) => void }) {
  const members = useLoad(() => loadMembers(projectId), projectId);
  if (members.error) return <Field label="User id" value={userId ?? ''} error={error} onChange={(event) => onChange(event.target.value.trim() || undefined)} />;
  const people = members.value ?? [];
  // A user from the URL who is no longer a member keeps their option, so the filter shown is the filter applied.
  const shown = userId && !people.some((person) => person.userId === userId) ? [...people, { userId, name: userId }] : people;
  return (
    <SelectField label="User" value={userId ?? ''} error={error} onChange={(event) => onChange(event.target.value || undefined)}>
      <option value="">Everyone</option>
      {shown.map((person) => (
        <option key={person.userId} value={person.userId}>
          {person.name}
        </option>
      ))}
    </SelectField>
  );
}
