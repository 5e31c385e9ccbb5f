import { ClusterSchedule, ConfigError, type ServiceDefinition } from '@platform/kit';
import { loadIdentityConfig, type IdentityConfig } from './config';
import { identityDeps } from './identity-deps';
import { moveLegacySessionIndex } from './auth/legacy-session-index';
import { applyConfirmedEmailSetting } from './users/confirmed-email-setting';
import { verificationMailed } from './users/email-verification';
import { PROJECT_PURGE_SCHEDULE, ProjectPurgeJob } from './projects/project-purge';
import { registerAccessTokenRoutes } from './routes/access-tokens';
import { registerAccountDeletionRoutes } from './routes/account-deletion';
import { registerAdminRoutes } from './routes/admin';
import { registerAuthRoutes } from './routes/auth';
import { registerBackupRoutes } from './routes/backups';
import { registerDevPromotionRoute } from './routes/dev-promotion';
import { registerEmailChangeRoutes } from './routes/email-change';
import { registerEmailVerificationRoutes } from './routes/email-verification';
import { registerInvitationLinkRoutes } from './routes/invitation-links';
import { registerInvitationRoutes } from './routes/invitations';
import { registerMeRoutes } from './routes/me';
import { registerPasswordRoutes } from './routes/passwords';
import { registerProjectDeletionRoutes } from './routes/project-deletion';
import { registerProjectMoveRoute } from './routes/project-move';
import { registerProjectRoutes } from './routes/projects';
import { registerSessionRoutes } from './routes/sessions';
import { registerTenantRoutes } from './routes/tenants';
import { registerTwoFactorRoutes } from './routes/two-factor';
import { registerUserRoutes } from './routes/users';

/**
 * The identity service: accounts, sessions, tenants, projects, members and invitations, profile, platform
 * administration. Configuration is read from the environment when the service starts unless given
 * (tests give it).
 */
export function createIdentityService(given?: IdentityConfig): ServiceDefinition {
  let config: IdentityConfig | undefined = given;
  const configuration = () => (config ??= loadIdentityConfig());
  return {
    name: 'identity',
    routes: async (app, context) => {
      const deps = identityDeps(context, configuration());
      registerAuthRoutes(app, deps);
      registerMeRoutes(app, deps);
      registerPasswordRoutes(app, deps);
      registerEmailChangeRoutes(app, deps);
      registerEmailVerificationRoutes(app, deps);
      registerTwoFactorRoutes(app, deps);
      registerSessionRoutes(app, deps);
      registerAccessTokenRoutes(app, deps);
      registerAccountDeletionRoutes(app, deps);
      registerInvitationRoutes(app, deps);
      registerInvitationLinkRoutes(app, deps);
      registerUserRoutes(app, deps);
      registerProjectRoutes(app, deps);
      registerProjectDeletionRoutes(app, deps);
      registerProjectMoveRoute(app, deps);
      registerTenantRoutes(app, deps);
      registerAdminRoutes(app, deps);
      registerBackupRoutes(app, context.store);
      registerDevPromotionRoute(app, deps);
    },
    start: async (context) => {
      const deps = identityDeps(context, configuration());
      // Required but impossible: no account could ever confirm its email, so none could do anything.
      if (deps.requireConfirmedEmail && !verificationMailed(deps)) {
        throw new ConfigError(['IDENTITY_REQUIRE_CONFIRMED_EMAIL: true needs mail delivery: set SMTP_URL (without it, production writes mails to the log and no account could confirm its email)']);
      }
      await Promise.all([
        deps.users.ensureIndexes(),
        deps.projects.ensureIndexes(),
        deps.tenants.ensureIndexes(),
        deps.invitations.ensureIndexes(),
        deps.emailInvitations.ensureIndexes(),
        deps.outbox.ensureIndexes(),
      ]);
      // Before the first sign-in: sessions an older version indexed are listed and ended like new ones.
      await moveLegacySessionIndex(context.kv, context.clock).then(
        (moved) => moved > 0 && context.logger.info({ sessions: moved }, 'session index of an earlier version moved to one map per user'),
        (error: unknown) => context.logger.warn({ err: error }, 'the session index of an earlier version could not be moved (its sessions work, but are not listed or ended with the others); trying again at the next start'),
      );
      // Membership and project changes an earlier run made but could not publish (the bus down, a stop between the two).
      deps.outbox.start();
      // Promotion tokens do not survive a restart of identity (spec: pending → gone).
      await deps.promotions.clearAll().catch((error: unknown) => context.logger.warn({ err: error }, 'promotion tokens could not be cleared'));
      // In the background: the sessions of every unconfirmed account, when the setting changed.
      const applied = applyConfirmedEmailSetting(deps, context.kv).then(
        (rewritten) => rewritten > 0 && context.logger.info({ accounts: rewritten, requireConfirmedEmail: deps.requireConfirmedEmail }, 'sessions of unconfirmed accounts follow IDENTITY_REQUIRE_CONFIRMED_EMAIL'),
        (error: unknown) => context.logger.warn({ err: error }, 'sessions of unconfirmed accounts could not follow IDENTITY_REQUIRE_CONFIRMED_EMAIL; trying again at the next start'),
      );
      const purge = new ProjectPurgeJob(deps);
      const schedule = new ClusterSchedule(purge, context.kv, context.clock, context.logger, PROJECT_PURGE_SCHEDULE);
      schedule.start(configuration().projectPurgeCheckMs);
      return async () => {
        schedule.stop();
        deps.outbox.stop();
        await applied;
      };
    },
  };
}

export const identityService: ServiceDefinition = createIdentityService();
