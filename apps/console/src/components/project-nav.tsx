import { projectPath } from '../paths';
import { useProject } from '../project-context';
import { Link, usePath } from '../router';

/** The sections of a project, in the order a person meets them. */
const sections = [
  { path: '', label: 'Types' },
  { path: '/members', label: 'Members' },
  { path: '/audit-trail', label: 'Audit trail' },
  { path: '/actions', label: 'Actions' },
  { path: '/agents', label: 'Agents' },
  { path: '/applications', label: 'Applications' },
  { path: '/visitors', label: 'Visitors' },
  { path: '/settings', label: 'Settings' },
] as const;

/** The project's name and navigation; the current section is marked for assistive technology too. */
export function ProjectNav({ projectId }: { projectId: string }) {
  const path = usePath();
  const project = useProject().value;
  const base = projectPath(projectId);
  const current = sections.filter((section) => section.path !== '').find((section) => path.startsWith(base + section.path))?.path ?? '';
  return (
    <nav aria-label="Project" className="project-nav">
      <strong className="project-name">{project?.name ?? '…'}</strong>
      {sections.map((section) => (
        <Link key={section.path} to={base + section.path} aria-current={section.path === current ? 'page' : undefined}>
          {section.label}
        </Link>
      ))}
    </nav>
  );
}
