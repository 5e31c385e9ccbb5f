import { dependencyStateSchema, healthBodySchema, type BackendServiceName, type HealthBody } from '@platform/contracts';
import type { HealthMonitor } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Health bodies are built from the monitors' typed snapshots, and probes call these routes all the
 * time, so they are written with plain JSON.stringify; the zod schemas stay for the OpenAPI
 * document (a per-request zod pass was about a tenth of the route's cost).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/**
 * `GET /api/health`: answers from the monitors' latest snapshots, so it touches neither the
 * session store nor any other backend while serving. 200 while the gateway serves; `status` says
 * `degraded` when a service or dependency is down.
 */
export function registerHealthRoute(
  app: FastifyInstance,
  monitors: { services: HealthMonitor; dependencies: HealthMonitor },
  shape: HealthBody['shape'],
): void {
  app.get(
    '/api/health',
    {
      schema: { tags: ['platform'], summary: 'Health of the gateway, its services and backends', security: [], response: { 200: healthBodySchema } },
      serializerCompiler: plainJson,
    },
    async () => {
      const services = monitors.services.snapshot();
      const dependencies = monitors.dependencies.snapshot();
      const allUp = [...Object.values(services), ...Object.values(dependencies)].every((state) => state.up);
      return { status: allUp ? 'ok' : 'degraded', shape, services, dependencies } satisfies HealthBody;
    },
  );
}

/**
 * `GET /api/health/{service}` for services hosted in this process: their state from the snapshot.
 * A remote service's health is proxied to its own `/api/health` instead (see proxy.ts), so this
 * path also measures exactly one gateway hop.
 */
export function registerLocalServiceHealthRoutes(app: FastifyInstance, monitor: HealthMonitor, local: BackendServiceName[]): void {
  for (const name of local) {
    app.get(
      `/api/health/${name}`,
      {
        schema: { tags: ['platform'], summary: `Health of the ${name} service`, security: [], response: { 200: z.object({ service: z.string(), state: dependencyStateSchema.optional() }) } },
        serializerCompiler: plainJson,
      },
      async () => ({ service: name, state: monitor.snapshot()[name] }),
    );
  }
}
