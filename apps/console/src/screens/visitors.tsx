/** Scaffold: issue 23 builds this screen. */
export function Visitors({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Visitors</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
