import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const badOperators = ['$where', '$currentDate', '$setOnInsert', '$bit', '$pop', '$pullAll', 'title', '', '$', '$set.x'];
const badPaths = ['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'changes', '_outbox', '_id', 'projectId', 'access.read', '__proto__', 'a.__proto__.b', 'constructor', 'a..b', '.a', 'a.', 'items.$.x', '$x'];
const badValues: unknown[] = [{ $gt: 1 }, { nested: { $where: 'x' } }, JSON.parse('{"__proto__":{"polluted":true}}'), { a: { constructor: { prototype: 1 } } }];

/** 240 modifiers that are each wrong in one generated way. */
function badModifiers(): unknown[] {
  const next = random(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const cases: unknown[] = [null, [], 'string', 42, {}, { $set: null }, { $set: [] }, { $set: {} }, { $inc: { n: 'x' } }, { $mul: { n: null } }];
  while (cases.length < 240) {
    const shape = Math.floor(next() * 4);
    if (shape === 0) cases.push({ [pick(badOperators)]: { title: 'x' } });
    else if (shape === 1) cases.push({ [pick(['$set', '$unset', '$inc', '$push', '$min'])]: { [pick(badPaths)]: 1 } });
    else if (shape === 2) cases.push({ $set: { [`field${cases.length}`]: pick(badValues) } });
    else cases.push({ $rename: { title: pick(badPaths) } });
  }
  return cases;
}

describe('modifier fuzz', () => {
  let platform: TestGateway;
  let path: string;
  let token: string;

  beforeAll(async () => {
    platform = await startTestGateway({ services: [dataService] });
    token = await platform.signIn('member');
    const projectId = await platform.seedProject({ ownerId: 'someone-else', members: [{ userId: 'member' }], access: { update: { userIds: ['someone-else'] } } });
    await platform.call('POST', `/api/projects/${projectId}/types`, { token: await platform.signIn('someone-else'), body: { id: 'things', name: 'Things' } });
    path = `/api/projects/${projectId}/types/things/data`;
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('answers every generated bad modifier with 400, never 5xx, and the document never changes', async () => {
    const created = (await platform.call('POST', path, { token, body: { title: 'stable', n: 1 } })).body;
    const statuses = new Map<number, number>();
    for (const modifier of badModifiers()) {
      const response = await platform.call('PATCH', `${path}/${created.id}`, { token, body: { modifier, baseRevision: 0 } });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status !== 400) throw new Error(`modifier ${JSON.stringify(modifier)} answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
    expect([...statuses.keys()]).toEqual([400]);
    const after = await platform.call('GET', `${path}/${created.id}?includeChanges=true`, { token });
    expect(after.body).toMatchObject({ title: 'stable', n: 1, revision: 0 });
    expect(after.body.changes).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
