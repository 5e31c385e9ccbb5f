import type { EventBus } from '@platform/bus';
import { EventOutbox, type AccessChanges, type Clock, type Logger, type Mailer, type ProjectAccess, type ServiceContext } from '@platform/kit';
import { UserMailThrottle } from './auth/user-mail-throttle';
import { LoginThrottle } from './auth/login-throttle';
import { PasswordResetThrottle } from './auth/password-reset-throttle';
import { EMAIL_CHANGE_LINKS, EMAIL_VERIFICATION_LINKS, MailedLinkTokens, PASSWORD_RESET_LINKS } from './auth/mailed-link-tokens';
import { RegistrationThrottle } from './auth/registration-throttle';
import { Sessions } from './auth/sessions';
import type { IdentityConfig } from './config';
import { EmailInvitationRepository } from './invitations/email-invitation-repository';
import { InvitationMailThrottle } from './invitations/invitation-mail-throttle';
import { InvitationRepository } from './invitations/invitation-repository';
import { ProjectRepository } from './projects/project-repository';
import { PromotionTokens } from './promotion/promotion-tokens';
import { TenantRepository } from './tenants/tenant-repository';
import { UserRepository } from './users/user-repository';

/** What identity's routes share: one instance of each per service context. */
export interface IdentityDeps {
  dev: boolean;
  logger: Logger;
  clock: Clock;
  /** Where identity tells the other services of deleted projects and accounts. */
  bus: EventBus;
  mailer: Mailer;
  users: UserRepository;
  projects: ProjectRepository;
  tenants: TenantRepository;
  invitations: InvitationRepository;
  emailInvitations: EmailInvitationRepository;
  invitationMails: InvitationMailThrottle;
  access: ProjectAccess;
  /** Where membership and project changes go out to the audit trail (kit's EventOutbox). */
  outbox: EventOutbox;
  /** Membership, permission, ownership and settings changes go through here, so every process forgets them at once. */
  accessChanges: AccessChanges;
  sessions: Sessions;
  throttle: LoginThrottle;
  registrations: RegistrationThrottle;
  resetTokens: MailedLinkTokens;
  /** Links that confirm a new email address; each carries `{ userId, email }` as JSON. */
  emailChangeTokens: MailedLinkTokens;
  emailChangeThrottle: UserMailThrottle;
  /** Links that confirm the account's own address; each carries `{ userId, email }` as JSON. */
  verificationTokens: MailedLinkTokens;
  verificationMailThrottle: UserMailThrottle;
  resetThrottle: PasswordResetThrottle;
  promotions: PromotionTokens;
  /** How long a deleted project stays restorable, in ms. */
  projectRestorePeriodMs: number;
  /** IDENTITY_REQUIRE_CONFIRMED_EMAIL (see config.ts). */
  requireConfirmedEmail: boolean;
  /** Where people open the platform, for the links identity writes to the log and mails. */
  publicUrl: () => string;
}

/** Membership and project changes made but not published yet. */
export const IDENTITY_OUTBOX_COLLECTION = 'identity-outbox';

const depsByContext = new WeakMap<ServiceContext, IdentityDeps>();

export function identityDeps(context: ServiceContext, config: IdentityConfig): IdentityDeps {
  const existing = depsByContext.get(context);
  if (existing) return existing;
  const { store, kv, clock } = context;
  const deps: IdentityDeps = {
    dev: context.dev,
    logger: context.logger,
    clock,
    bus: context.bus,
    mailer: context.mailer,
    users: new UserRepository(store, clock),
    projects: new ProjectRepository(store, clock),
    tenants: new TenantRepository(store, clock),
    invitations: new InvitationRepository(store, clock),
    emailInvitations: new EmailInvitationRepository(store, clock),
    invitationMails: new InvitationMailThrottle(kv, config.invitationMailLimit),
    access: context.projectAccess,
    accessChanges: context.accessChanges,
    outbox: new EventOutbox({ store, bus: context.bus, clock, logger: context.logger }, IDENTITY_OUTBOX_COLLECTION),
    sessions: new Sessions(kv, clock, { bus: context.bus, requireConfirmedEmail: config.requireConfirmedEmail }),
    throttle: new LoginThrottle(kv, config.loginLimits),
    registrations: new RegistrationThrottle(kv, config.registrationLimit),
    resetTokens: new MailedLinkTokens(kv, PASSWORD_RESET_LINKS),
    emailChangeTokens: new MailedLinkTokens(kv, EMAIL_CHANGE_LINKS),
    emailChangeThrottle: new UserMailThrottle(kv, { key: 'email-changes', error: 'IDENTITY_TOO_MANY_EMAIL_CHANGES' }),
    verificationTokens: new MailedLinkTokens(kv, EMAIL_VERIFICATION_LINKS),
    verificationMailThrottle: new UserMailThrottle(kv, { key: 'verification-mails', error: 'IDENTITY_TOO_MANY_VERIFICATION_MAILS' }),
    resetThrottle: new PasswordResetThrottle(kv),
    promotions: new PromotionTokens(kv),
    projectRestorePeriodMs: config.projectRestorePeriodMs,
    requireConfirmedEmail: config.requireConfirmedEmail,
    publicUrl: () => context.publicUrl(),
  };
  depsByContext.set(context, deps);
  return deps;
}
