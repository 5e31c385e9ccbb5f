import { ProjectDocuments } from './screens/documents';
import { DocumentDetail } from './screens/document-detail';
import { Projects } from './screens/projects';
import { SignIn } from './screens/sign-in';
import { SignUp } from './screens/sign-up';
import { Types } from './screens/types';
import { Link, match, navigate, usePath } from './router';
import { SessionProvider, useSession } from './session';

function Unavailable() {
  return (
    <p role="status" className="banner">
      The service is unavailable right now; the console retries by itself.
    </p>
  );
}

function Header() {
  const { user, signOut } = useSession();
  return (
    <header className="top">
      <Link to="/projects" className="brand">
        Platform console
      </Link>
      {user && (
        <span className="who">
          {user.displayName}
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      )}
    </header>
  );
}

function Screen() {
  const { user } = useSession();
  const path = usePath();
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (path === '/sign-up') return <SignUp />;
  if (!user || path === '/sign-in') {
    if (user && path === '/sign-in') {
      navigate('/projects', { replace: true });
      return null;
    }
    return <SignIn />;
  }
  let params: Record<string, string> | undefined;
  if ((params = match('/projects/:projectId/types/:typeId/documents/:id', path))) return <DocumentDetail projectId={params.projectId!} typeId={params.typeId!} id={params.id!} key={path} />;
  if ((params = match('/projects/:projectId/types/:typeId', path))) return <ProjectDocuments projectId={params.projectId!} typeId={params.typeId!} key={path} />;
  if ((params = match('/projects/:projectId', path))) return <Types projectId={params.projectId!} key={path} />;
  return <Projects />;
}

function Banner() {
  return useSession().unavailable ? <Unavailable /> : null;
}

export function App() {
  return (
    <SessionProvider>
      <Header />
      <Banner />
      <Screen />
    </SessionProvider>
  );
}
