/** Scaffold: issue 23 builds this screen. */
export function ProjectSettings({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Settings</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
