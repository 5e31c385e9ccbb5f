/** Scaffold: issue 23 builds this screen. */
export function Applications({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Applications</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
