import type { MetricsTarget } from './local-topology';

/** One target group of a Prometheus `file_sd_configs` file. */
interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

/**
 * The topology's metrics listeners as a Prometheus `file_sd_configs` file: one group per process,
 * labelled `service` like the compose profile's scrape configuration (observability/prometheus.yml),
 * so the same dashboard reads both. Prometheus rereads the file when it changes, so a new run's
 * ports (METRICS_PORT=0) are picked up without a restart.
 */
export function prometheusTargetsFile(targets: readonly MetricsTarget[]): string {
  const groups: TargetGroup[] = targets.map(({ service, instance, url }) => ({ targets: [new URL(url).host], labels: { service, process: instance } }));
  return `${JSON.stringify(groups, null, 2)}\n`;
}
