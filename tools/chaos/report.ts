import type { AcknowledgedWrite } from './load';
import type { Phase, Traffic } from './traffic';
import type { Damage } from './verify';

function errorsByStatus(phase: Phase): string {
  const errors = [...phase.outcomes].filter(([outcome]) => typeof outcome !== 'number' || outcome >= 400);
  errors.sort(([a], [b]) => String(a).localeCompare(String(b)));
  return errors.map(([outcome, count]) => `${outcome}×${count}`).join(' ') || '-';
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/**
 * One row per phase: seconds from the kill until the gateway reported everything up again,
 * requests through the gateway (load generator and sync clients), writes acknowledged, non-2xx
 * answers by status (409 are the answers to retried writes), retries, and what was lost or
 * duplicated in it (writes / audit trail / action runs).
 */
export function formatReport(traffic: Traffic, acknowledged: AcknowledgedWrite[], damage: Map<Phase, Damage>, recoverySeconds: Map<Phase, number>): string {
  const rows = [['fault', 'healthy after s', 'requests', 'writes acked', 'errors by status', 'retries', 'lost (writes/trail/runs)', 'duplicated (trail/runs)']];
  for (const phase of traffic.phases) {
    const requests = [...phase.outcomes.values()].reduce((sum, count) => sum + count, 0);
    const acked = acknowledged.filter((write) => traffic.phaseAt(write.at) === phase).length;
    const d = damage.get(phase)!;
    const recovery = recoverySeconds.get(phase);
    rows.push([
      phase.name,
      recovery === undefined ? '-' : recovery.toFixed(1),
      String(requests),
      String(acked),
      errorsByStatus(phase),
      String(phase.retries),
      `${d.lostWrites}/${d.lostTrail}/${d.lostRuns}`,
      `${d.duplicatedTrail}/${d.duplicatedRuns}`,
    ]);
  }
  return table(rows);
}
