import { describe, expect, it } from 'vitest';
import { accessRuleProblems } from './access-rules';

describe('accessRuleProblems', () => {
  it('accepts rules of permission and userIds, and fields it is not asked about', () => {
    expect(accessRuleProblems({ access: { read: { permission: 'p::viewers', userIds: ['u1'] }, delete: {} }, other: { users: [] } }, ['access'])).toEqual([]);
    expect(accessRuleProblems({ access: { read: { users: ['u1'] } } }, [])).toEqual([]);
  });

  it('names an unknown rule key, an unknown operation and a wrong value by their field', () => {
    const problems = accessRuleProblems({ access: { read: { users: ['u1'] } }, defaultAccess: { reed: { userIds: ['u1'] }, update: { userIds: 'u1' } } }, ['access', 'defaultAccess']);
    expect(problems).toEqual([
      { field: 'access.read', message: expect.stringContaining('"users"') },
      { field: 'defaultAccess.update.userIds', message: expect.stringContaining('expected array') },
      { field: 'defaultAccess', message: expect.stringContaining('"reed"') },
    ]);
  });
});
