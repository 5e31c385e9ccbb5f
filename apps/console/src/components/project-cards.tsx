import { useSession } from '../session';
import { openProject } from '../open-project';

/** Projects as cards (name and id); a click records the project as the most recent and opens it. */
export function ProjectCards({ label, projects }: { label: string; projects: ReadonlyArray<{ id: string; name: string }> }) {
  const { refresh } = useSession();
  return (
    <ul className="cards" aria-label={label}>
      {projects.map((project) => (
        <li key={project.id}>
          <button type="button" className="card" onClick={() => void openProject(project.id, refresh)}>
            <strong>{project.name}</strong>
            <small>{project.id}</small>
          </button>
        </li>
      ))}
    </ul>
  );
}
