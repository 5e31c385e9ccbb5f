import type { ActionBlock } from './action-schema';
import type { GraphProblem } from './graph';
import type { NetworkPolicy } from './network-policy';

/**
 * call-webhook blocks whose URL names a literal IP address the network policy refuses: refused
 * when the action is saved, so it never runs against them. Host names cannot be judged here (a
 * name may resolve differently when it is called); the connection pool checks them after DNS.
 * Runs only on a graph that passed validation, so every call-webhook URL parses.
 */
export function refusedWebhookAddresses(blocks: readonly ActionBlock[], policy: NetworkPolicy): GraphProblem[] {
  const problems: GraphProblem[] = [];
  blocks.forEach((block, index) => {
    const url = block.blockName === 'call-webhook' ? block.configuration?.url : undefined;
    if (typeof url !== 'string') return;
    const refusal = policy.urlRefusal(new URL(url));
    if (refusal) problems.push({ code: 'ACTIONS_WEBHOOK_ADDRESS_REFUSED', field: `blocks.${index}.configuration.url`, message: `${refusal}; webhooks may reach only public addresses (SSRF guard)` });
  });
  return problems;
}
