import { startMetricsServer } from '@platform/telemetry';
import { listenFailure, StartupFailure } from './startup-failure';

/**
 * The process's metrics listener (`GET /metrics` on METRICS_HOST:METRICS_PORT). A port in use or
 * an address not on this machine stops start-up with a line naming METRICS_PORT or METRICS_HOST:
 * told as a listen failure of the process, it would send the person to PORT.
 */
export async function startMetricsListener(host: string, port: number): ReturnType<typeof startMetricsServer> {
  try {
    return await startMetricsServer({ host, port });
  } catch (error) {
    const told = listenFailure(error, { name: 'metrics port', portVariable: 'METRICS_PORT', hostVariable: 'METRICS_HOST', host });
    throw told ? new StartupFailure(told, { cause: error }) : error;
  }
}
