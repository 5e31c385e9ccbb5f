/** Scaffold: issue 23 builds this screen. */
export function Members({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Members</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
