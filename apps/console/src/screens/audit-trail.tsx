/** Scaffold: issue 23 builds this screen. */
export function AuditTrail({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Audit trail</h1>
      <p data-project={projectId}>Not built yet.</p>
    </main>
  );
}
