import type { TraceContext } from '@platform/telemetry';
import { EMAIL_VERIFICATION_LINKS } from '../auth/mailed-link-tokens';
import type { IdentityDeps } from '../identity-deps';

/** Where the link leads: the console's page, the token in the fragment so no server or proxy log holds it. */
const VERIFY_PAGE_PATH = '/console/verify-email';

/** What a verification link's token carries: the address it proves, so a link for an earlier address proves nothing. */
export interface EmailVerification {
  userId: string;
  email: string;
}

/** Whether links are mailed here: not where mail goes to the log in production (nobody would get them). */
export const verificationMailed = (deps: Pick<IdentityDeps, 'mailer' | 'dev'>): boolean => deps.mailer.kind !== 'log' || deps.dev;

/** A new link for the user's address (retiring the one before) and the text that offers it. */
export async function verificationText(deps: Pick<IdentityDeps, 'verificationTokens' | 'publicUrl'>, user: { id: string; email: string }): Promise<string> {
  const claim: EmailVerification = { userId: user.id, email: user.email };
  const token = await deps.verificationTokens.issue(user.id, JSON.stringify(claim));
  return `Confirm that this address is yours within ${EMAIL_VERIFICATION_LINKS.ttlMs / 86_400_000} days: ${deps.publicUrl()}${VERIFY_PAGE_PATH}#token=${token}`;
}

/** Mails a new link to the user's address. */
export async function mailVerificationLink(deps: Pick<IdentityDeps, 'verificationTokens' | 'publicUrl' | 'mailer'>, user: { id: string; email: string; displayName: string }, traceContext: TraceContext | undefined): Promise<void> {
  const text = [`Hello ${user.displayName},`, '', await verificationText(deps, user), '', 'If you did not ask for this, ignore this mail.'].join('\n');
  await deps.mailer.send({ to: user.email, subject: 'Confirm your email address', text }, { traceContext });
}
