import { Link } from '../router';
import { projectPath } from '../paths';

/** A screen's way to the audit trail of what it manages (`typeId` one of the trail's kinds, e.g. `project.members`). */
export function TrailLink({ projectId, typeId, children }: { projectId: string; typeId: string; children: string }) {
  return (
    <p className="muted">
      <Link to={`${projectPath(projectId)}/audit-trail?typeId=${encodeURIComponent(typeId)}`}>{children}</Link>
    </p>
  );
}
