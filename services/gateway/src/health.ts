import { dependencyStateSchema, healthBodySchema, type BackendServiceName, type HealthBody } from '@platform/contracts';
import type { AccessChanges, HealthMonitor } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { HealthDetailCheck } from './health-viewer';

/**
 * Health bodies are built from the monitors' typed snapshots, and probes call these routes all the
 * time, so they are written with plain JSON.stringify; the zod schemas stay for the OpenAPI
 * document (a per-request zod pass was about a tenth of the route's cost).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** What callers other than platform owners see: whether the platform is healthy, nothing internal. */
const healthSummarySchema = healthBodySchema.pick({ status: true });

/**
 * `GET /api/health`: answers from the monitors' latest snapshots, so it touches no backend while
 * serving (the session store only for a caller presenting a session). 200 while the gateway
 * serves; `status` says `degraded` when a service or dependency is down. Platform owners also get
 * the shape, each service's and backend's state (service URLs included) and how access changes
 * reach this process; everyone else gets the status alone.
 */
export function registerHealthRoute(
  app: FastifyInstance,
  monitors: { services: HealthMonitor; dependencies: HealthMonitor },
  shape: HealthBody['shape'],
  showsDetail: HealthDetailCheck,
  /** This process's access changes, when it caches project standing (services or realtime). */
  accessChanges?: AccessChanges,
): void {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Health of the gateway, its services and backends',
        description: 'Anyone gets the status; platform owners also get the shape and the state of every service and backend.',
        security: [],
        response: { 200: z.union([healthBodySchema, healthSummarySchema]) },
      },
      serializerCompiler: plainJson,
    },
    async (request) => {
      const detail = await showsDetail(request);
      // Read after the wait, in one synchronous stretch, so the status and the detail agree.
      const status = monitors.services.allUp() && monitors.dependencies.allUp() ? 'ok' : 'degraded';
      if (!detail) return { status };
      const services = monitors.services.snapshot();
      const dependencies = monitors.dependencies.snapshot();
      const accessRevocation = accessChanges?.revocation(dependencies.bus?.up === true);
      return { status, shape, services, dependencies, ...(accessRevocation ? { accessRevocation } : {}) } satisfies HealthBody;
    },
  );
}

/**
 * `GET /api/health/{service}` for services hosted in this process: their state from the snapshot
 * (only whether it is up, except for platform owners). A remote service's health is proxied to its
 * own `/api/health` instead (see proxy.ts), so this path also measures exactly one gateway hop.
 */
export function registerLocalServiceHealthRoutes(app: FastifyInstance, monitor: HealthMonitor, local: BackendServiceName[], showsDetail: HealthDetailCheck): void {
  for (const name of local) {
    app.get(
      `/api/health/${name}`,
      {
        schema: { tags: ['platform'], summary: `Health of the ${name} service`, security: [], response: { 200: z.object({ service: z.string(), state: dependencyStateSchema.optional() }) } },
        serializerCompiler: plainJson,
      },
      async (request) => {
        const state = monitor.state(name);
        if (!state || (await showsDetail(request))) return { service: name, state };
        return { service: name, state: { up: state.up } };
      },
    );
  }
}
