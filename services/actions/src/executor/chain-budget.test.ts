import { createMemoryKeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import { ActionChainBudget, CHAIN_BUDGET_TTL_MS } from './chain-budget';

describe('ActionChainBudget', () => {
  it('allows a chain its budget of writes and refuses every one after it', async () => {
    const budget = new ActionChainBudget(createMemoryKeyValue(), 3);
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await budget.take('p1.docs/o1/0'));
    expect(answers).toEqual([true, true, true, false, false]);
  });

  it('counts each chain on its own', async () => {
    const budget = new ActionChainBudget(createMemoryKeyValue(), 1);
    expect([await budget.take('p1.docs/o1/0'), await budget.take('p1.docs/o1/0'), await budget.take('p1.docs/o1/1'), await budget.take('p2.docs/o1/0')]).toEqual([true, false, true, true]);
  });

  it("forgets a chain's count once it is an hour old", async () => {
    let now = 1_000_000;
    const budget = new ActionChainBudget(createMemoryKeyValue({ now: () => now }), 1);
    expect(await budget.take('p1.docs/o1/0')).toBe(true);
    expect(await budget.take('p1.docs/o1/0')).toBe(false);
    now += CHAIN_BUDGET_TTL_MS + 1;
    expect(await budget.take('p1.docs/o1/0')).toBe(true);
  });
});
