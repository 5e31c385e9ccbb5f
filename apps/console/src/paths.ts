/** A project's screens start here (its types); router paths, without the /console base. */
export function projectPath(projectId: string): string {
  return `/projects/${encodeURIComponent(projectId)}`;
}

/** A type's documents screen. */
export function typePath(projectId: string, typeId: string): string {
  return `${projectPath(projectId)}/types/${encodeURIComponent(typeId)}`;
}

/** A document's screen: its state, history and conflicts. */
export function documentPath(projectId: string, typeId: string, id: string): string {
  return `${typePath(projectId, typeId)}/documents/${encodeURIComponent(id)}`;
}
