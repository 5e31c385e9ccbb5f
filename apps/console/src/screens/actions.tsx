/** Scaffold: issue 23 builds this screen. */
export function Actions({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Actions</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
