import { createContext, useContext, type ReactNode } from 'react';
import { api, unwrap } from './api/client';
import type { paths } from './api/openapi';
import { useLoad } from './components/use-load';

export type Project = paths['/api/projects/{projectId}']['get']['responses'][200]['content']['application/json'];

interface ProjectState {
  value: Project | undefined;
  error: unknown;
  /** Loads the project again (after a change of its name or settings), for every screen showing it; answers once it is loaded. */
  reload: () => Promise<void>;
}

const ProjectContext = createContext<ProjectState | undefined>(undefined);

/** The open project, loaded once for its navigation and screens. */
export function ProjectProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  const project = useLoad(() => unwrap(api.GET('/api/projects/{projectId}', { params: { path: { projectId } } })), projectId);
  return <ProjectContext.Provider value={project}>{children}</ProjectContext.Provider>;
}

export function useProject(): ProjectState {
  const project = useContext(ProjectContext);
  if (!project) throw new Error('useProject outside ProjectProvider');
  return project;
}
