import { startRunConditions } from './src/run-conditions';
import { accessRevocation } from './src/suites/access-revocation';
import { actionsLatency } from './src/suites/actions-latency';
import { auditTrail } from './src/suites/audit-trail';
import { consoleBudgets } from './src/suites/console';
import { dataDocuments } from './src/suites/data-documents';
import { gatewayOverhead } from './src/suites/gateway-overhead';
import { identityMe } from './src/suites/identity-me';
import { memory } from './src/suites/memory';
import { publishingResolution } from './src/suites/publishing-resolution';
import { syncPush } from './src/suites/sync-push';
import { syncRealtime } from './src/suites/sync-realtime';
import { tracingOverhead } from './src/suites/tracing-overhead';
import { typeSchemaPatch } from './src/suites/type-schema-patch';

/** `pnpm bench [suite ...]`: runs the named suites (all by default) and rewrites their sections of BENCHMARKS.md. */
const suites: Record<string, () => Promise<void>> = {
  'gateway-overhead': gatewayOverhead,
  'identity-me': identityMe,
  'data-documents': dataDocuments,
  'type-schema-patch': typeSchemaPatch,
  'audit-trail': auditTrail,
  'publishing-resolution': publishingResolution,
  'actions-latency': actionsLatency,
  'sync-realtime': syncRealtime,
  'sync-push': syncPush,
  'access-revocation': accessRevocation,
  'tracing-overhead': tracingOverhead,
  console: consoleBudgets,
  memory,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in suites));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${Object.keys(suites).join(', ')}`);
  process.exit(2);
}
for (const name of requested.length ? requested : Object.keys(suites)) {
  console.log(`== ${name}`);
  startRunConditions();
  await suites[name]!();
}
process.exit(0);
