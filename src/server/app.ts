import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { CLIENT_IP_HEADER, createAuth, type AccountHooks, type PasswordHashing } from './auth/auth.js';
import { wireAccountHooks } from './account-hooks.js';
import { registerApiKeyRoutes } from './auth/api-keys.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerSignInOptions, registerSsoRouting } from './auth/sso.js';
import { decorateActor, guardDataRoutes } from './auth/guard.js';
import { refuseCrossSiteWrites } from './auth/origin.js';
import { acceptSamlPosts } from './auth/saml/index.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Deps } from './deps.js';
import { EventBus } from './events/bus.js';
import { activityRoutes } from './features/activity/activity.routes.js';
import { historyRoutes } from './features/history/history.routes.js';
import { boardExportRoutes } from './features/board-export/board-export.routes.js';
import { boardImportRoutes } from './features/board-import/board-import.routes.js';
import { instanceBackupRoutes } from './features/instance-backup/instance-backup.routes.js';
import { attachmentRoutes } from './features/attachments/attachments.routes.js';
import { archiveRoutes } from './features/archive/archive.routes.js';
import { searchRoutes } from './features/search/search.routes.js';
import { myWorkRoutes } from './features/my-work/my-work.routes.js';
import { icalFeedRoute, icalFeedRoutes } from './features/ical/ical.routes.js';
import { invitationRoutes } from './features/sharing/invitations.routes.js';
import { notificationRoutes } from './features/notifications/notifications.routes.js';
import { notificationsByIds } from './features/notifications/notifications.service.js';
import { areaRoutes } from './features/areas/areas.routes.js';
import { boardRoutes } from './features/boards/boards.routes.js';
import { boardVersions } from './features/boards/boards.repository.js';
import { cardRoutes } from './features/cards/cards.routes.js';
import { commentRoutes } from './features/comments/comments.routes.js';
import { labelRoutes } from './features/labels/labels.routes.js';
import { fieldRoutes } from './features/fields/fields.routes.js';
import { boardViewRoutes } from './features/board-views/board-views.routes.js';
import { sharingRoutes } from './features/sharing/sharing.routes.js';
import { publicLinkRoutes, publicViewRoutes } from './features/public-links/public-links.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { profileRoutes } from './features/profile/avatar.routes.js';
import { templateRoutes } from './features/templates/templates.routes.js';
import { mentionRoutes } from './features/mentions/mentions.routes.js';
import { webhookRoutes } from './features/webhooks/webhooks.routes.js';
import { adminMailRoutes } from './features/admin-mail/admin-mail.routes.js';
import { registerErrorHandling } from './http/error-handler.js';
import { idempotentWrites } from './http/idempotency.js';
import { registerMcp } from './mcp/mcp.routes.js';
import { registerOpenApi } from './http/openapi.js';
import { registerValidation } from './http/validation.js';
import { fastifyTrustProxy } from './http/trust-proxy.js';
import { logSerializers } from './http/log-redaction.js';
import { createJobRunner } from './jobs/index.js';
import { registerArchiveJobs } from './features/archive/jobs.js';
import { registerNotificationJobs } from './features/notifications/jobs.js';
import { registerSharingJobs } from './features/sharing/jobs.js';
import { registerWebhookJobs } from './features/webhooks/jobs.js';
import { Limits } from './limits/limits.js';
import { webhooksOnChange } from './features/webhooks/queue.js';
import { notificationsOnChange } from './features/notifications/on-change.js';
import { publicLinksOnChange } from './features/public-links/on-change.js';
import { subscribeToChanges } from './events/subscribers.js';
import type { Clock, JobRunner } from './jobs/runner.js';
import { createMailer } from './mail/mailer.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { registerRealtime } from './realtime/index.js';
import type { Hub } from './realtime/hub.js';
import { registerWebApp } from './http/web.js';
import { createReadCaches } from './access/read-caches.js';
import { keepCachesFresh } from './access/cache-invalidation.js';
import { registerReclaimJobs } from './features/reclaim/reclaim.service.js';
import { projectRoot, serviceVersion } from './version.js';
import { traceRequests } from './telemetry/http.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** pino options, or false for silence (tests). */
  logger?: boolean | object;
  /** How often realtime sockets are pinged; a socket that misses one pong is dropped. */
  heartbeatMs?: number;
  /** The time the job runner and the limits see (tests move it). */
  clock?: Clock;
  /** Tests only: a cheaper password hash than better-auth's (main.ts never sets it). */
  passwordHashing?: PasswordHashing;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    hub: Hub;
    jobs: JobRunner;
  }
}

/** The whole service as one Fastify instance; main.ts listens with it, tests inject into it. */
export async function buildApp({
  config,
  database,
  logger = false,
  heartbeatMs = 20_000,
  clock,
  passwordHashing,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === false ? false : { level: config.logLevel, ...(logger === true ? {} : logger), serializers: logSerializers },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
  });
  // First of all hooks: the request's span must be the context the others run in.
  traceRequests(app);
  const accountHooks: AccountHooks = {};
  const deps: Deps = {
    config,
    database,
    auth: createAuth(config, database, accountHooks, passwordHashing),
    bus: new EventBus(),
    log: app.log,
    limits: new Limits(config.limits, database.db, clock),
  };
  wireAccountHooks(accountHooks, deps);
  app.decorate('deps', deps);
  const readCaches = createReadCaches(database, deps.bus);
  const stopInvalidation = keepCachesFresh(database.dialect, config.databaseUrl, readCaches.caches, app.log);
  app.addHook('onClose', async () => {
    await stopInvalidation();
    readCaches.stop();
  });
  // What follows a board change (events/subscribers.ts): the features' side effects, never called by services.
  subscribeToChanges('webhooks', webhooksOnChange);
  subscribeToChanges('notifications', notificationsOnChange);
  subscribeToChanges('public-links', publicLinksOnChange);
  const mailer = createMailer(config, app.log);
  const jobs = createJobRunner(deps, mailer, clock);
  for (const register of [
    registerNotificationJobs,
    registerArchiveJobs,
    registerSharingJobs,
    registerWebhookJobs,
    registerReclaimJobs,
  ]) {
    register(jobs, deps);
  }
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await jobs.stop();
    mailer.close();
  });

  decorateActor(app);
  // SAML's HTTP-POST binding: a form body on the ACS only, its cookies dropped (before the cross-site check).
  acceptSamlPosts(app);
  refuseCrossSiteWrites(app, config.baseUrl);
  registerValidation(app);
  registerErrorHandling(app);
  await registerOpenApi(app, serviceVersion);

  metricsRoutes(app, config.metrics.token, database, jobs);
  healthRoutes(app, database);
  registerApiKeyRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerSignInOptions(app, config);
  registerSsoRouting(app, { config, auth: deps.auth, limits: deps.limits, clientIpHeader: CLIENT_IP_HEADER });
  invitationRoutes(app, deps);
  registerMcp(app, deps);
  icalFeedRoute(app, deps);
  app.decorate('hub', await registerRealtime(app, deps, { heartbeatMs }, { boardVersions, notificationsByIds }));
  // After the realtime routes: the public view's socket needs their WebSocket support.
  await publicViewRoutes(app, deps, { heartbeatMs });

  await app.register(
    (data, _options, done) => {
      guardDataRoutes(data, deps);
      idempotentWrites(data, database.db);
      boardRoutes(data, deps);
      areaRoutes(data, deps);
      cardRoutes(data, deps);
      labelRoutes(data, deps);
      fieldRoutes(data, deps);
      boardViewRoutes(data, deps);
      sharingRoutes(data, deps);
      publicLinkRoutes(data, deps);
      archiveRoutes(data, deps);
      activityRoutes(data, deps);
      historyRoutes(data, deps);
      boardExportRoutes(data, deps);
      instanceBackupRoutes(data, deps);
      boardImportRoutes(data, deps);
      attachmentRoutes(data, deps);
      commentRoutes(data, deps);
      searchRoutes(data, deps);
      myWorkRoutes(data, deps);
      icalFeedRoutes(data, deps);
      notificationRoutes(data, deps);
      profileRoutes(data, deps);
      webhookRoutes(data, deps);
      templateRoutes(data, deps);
      mentionRoutes(data, deps);
      adminMailRoutes(data, deps, mailer);
      done();
    },
    { prefix: '/api/data' },
  );

  registerWebApp(app, path.join(projectRoot, 'dist/web'), deps.config.language);
  return app;
}
