import type { ReactNode } from 'react';
import { ProjectDocuments } from './screens/documents';
import { DocumentDetail } from './screens/document-detail';
import { Projects } from './screens/projects';
import { SignIn } from './screens/sign-in';
import { SignUp } from './screens/sign-up';
import { ForgotPassword } from './screens/forgot-password';
import { ResetPassword } from './screens/reset-password';
import { ConfirmEmail } from './screens/confirm-email';
import { VerifyEmail } from './screens/verify-email';
import { ConfirmEmailFirst } from './screens/confirm-email-first';
import { Account } from './screens/account';
import { Types } from './screens/types';
import { Members } from './screens/members';
import { AuditTrail } from './screens/audit-trail';
import { Actions } from './screens/actions';
import { Agents } from './screens/agents';
import { Help } from './screens/help';
import { Applications } from './screens/applications';
import { Visitors } from './screens/visitors';
import { ProjectSettings } from './screens/project-settings';
import { TypeAccess } from './screens/type-access';
import { Admin } from './screens/admin';
import { Tenants } from './screens/tenants';
import { TenantDetail } from './screens/tenant-detail';
import { InvitationScreen } from './screens/invitation';
import { ProjectNav } from './components/project-nav';
import { Link, match, navigate, usePath } from './router';
import { SessionProvider, useSession } from './session';
import { isSignedOutPath, projectPath, type SignedOutPath } from './paths';
import { ProjectProvider } from './project-context';

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
          <Link to="/help">Help</Link>
          <Link to="/tenants">Tenants</Link>
          {user.platformOwner && <Link to="/admin">Admin</Link>}
          <Link to="/account" title="Your account">
            {user.displayName}
          </Link>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      )}
    </header>
  );
}

/** Every signed-out path's screen (the type asks for one per path in SIGNED_OUT_PATHS). */
const SIGNED_OUT_SCREENS: Record<SignedOutPath, () => ReactNode> = {
  '/sign-up': SignUp,
  '/forgot-password': ForgotPassword,
  '/reset-password': ResetPassword,
  '/confirm-email': ConfirmEmail,
  '/verify-email': VerifyEmail,
};

function Screen() {
  const { user } = useSession();
  const path = usePath();
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (isSignedOutPath(path)) {
    const SignedOutScreen = SIGNED_OUT_SCREENS[path];
    return <SignedOutScreen />;
  }
  if (!user || path === '/sign-in') {
    if (user && path === '/sign-in') {
      navigate('/projects', { replace: true });
      return null;
    }
    return <SignIn />;
  }
  if (path === '/account') return <Account />;
  // The platform requires a confirmed email (IDENTITY_REQUIRE_CONFIRMED_EMAIL): only the account is open until then.
  if (user.emailConfirmationRequired) return <ConfirmEmailFirst email={user.email} />;
  if (path === '/admin') return <Admin />;
  if (path === '/tenants') return <Tenants />;
  if (path === '/help') return <Help />;
  const tenantId = match('/tenants/:tenantId', path)?.tenantId;
  if (tenantId) return <TenantDetail tenantId={tenantId} key={tenantId} />;
  const invitationToken = match('/invitations/:token', path)?.token;
  if (invitationToken) return <InvitationScreen token={invitationToken} key={invitationToken} />;
  const projectId = match('/projects/:projectId', path.split('/').slice(0, 3).join('/'))?.projectId;
  if (!projectId) return <Projects />;
  return (
    <ProjectProvider projectId={projectId} key={projectId}>
      <ProjectNav projectId={projectId} />
      <ProjectScreen projectId={projectId} path={path} />
    </ProjectProvider>
  );
}

/** The screen of a path below `/projects/:projectId`. */
function ProjectScreen({ projectId, path }: { projectId: string; path: string }) {
  let params: Record<string, string> | undefined;
  if ((params = match('/projects/:projectId/types/:typeId/documents/:id', path))) return <DocumentDetail projectId={projectId} typeId={params.typeId!} id={params.id!} key={path} />;
  if ((params = match('/projects/:projectId/types/:typeId/access', path))) return <TypeAccess projectId={projectId} typeId={params.typeId!} key={path} />;
  if ((params = match('/projects/:projectId/types/:typeId', path))) return <ProjectDocuments projectId={projectId} typeId={params.typeId!} key={path} />;
  const base = projectPath(projectId);
  if (path.startsWith(`${base}/members`)) return <Members projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/audit-trail`)) return <AuditTrail projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/actions`)) return <Actions projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/agents`)) return <Agents projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/applications`)) return <Applications projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/visitors`)) return <Visitors projectId={projectId} key={path} />;
  if (path.startsWith(`${base}/settings`)) return <ProjectSettings projectId={projectId} key={path} />;
  return <Types projectId={projectId} key={path} />;
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
