import { lazy, Suspense } from 'react';
import { match } from '../router';

// Its own chunk: the console's initial JavaScript does not carry the kiosk, nor the kiosk the console's screens.
const Kiosk = lazy(() => import('./kiosk'));

/** The kiosk page a path names (`/kiosk/{projectId}/{applicationId}`), outside /console and without a session. */
export function kioskParams(pathname: string): { projectId: string; applicationId: string } | undefined {
  const params = match('/kiosk/:projectId/:applicationId', pathname.replace(/\/$/, ''));
  return params ? { projectId: params.projectId!, applicationId: params.applicationId! } : undefined;
}

export function KioskRoute(props: { projectId: string; applicationId: string }) {
  return (
    <Suspense fallback={<p className="loading">…</p>}>
      <Kiosk {...props} />
    </Suspense>
  );
}
