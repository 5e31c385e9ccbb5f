import { lazy, Suspense } from 'react';

// Finding the visitor types reads CheckIn configurations with the widget registry's schemas: its own chunk.
const VisitorTables = lazy(() => import('../visitors/visitor-tables'));

/** The project's visitors per visitor type: latest event, when, and when retention erases them. */
export function Visitors({ projectId }: { projectId: string }) {
  return (
    <main className="wide">
      <h1>Visitors</h1>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <VisitorTables projectId={projectId} />
      </Suspense>
    </main>
  );
}
