import { describe, expect, it } from 'vitest';
import { changeDetailInWords, changeInWords } from './change-words';

describe('change words', () => {
  it('say each change description the trail answers, and an unknown key as it is', () => {
    expect(changeInWords('audit.memberPermissionsChanged')).toBe('permissions changed');
    expect(changeInWords('audit.somethingNew')).toBe('audit.somethingNew');
  });

  const member = { changeDescription: 'audit.memberAdded' };
  it("say a membership change's permissions without their project's prefix, and nothing for a document's change", () => {
    expect(changeDetailInWords({ ...member, permissions: ['p1::editors'] })).toBe('permissions: editors');
    expect(changeDetailInWords({ ...member, permissions: [] })).toBe('permissions: none');
    expect(changeDetailInWords({ ...member, permissions: ['p1::a', 'p1::b'], previousPermissions: [] })).toBe('permissions: a, b (were: none)');
    expect(changeDetailInWords({ ...member, permissions: [], previousPermissions: ['p1::a'] })).toBe('had: a');
    expect(changeDetailInWords({ changeDescription: 'audit.updated' })).toBeUndefined();
  });

  it("say where an assignment pointed a domain and where it pointed before, naming the application only when it changed, and a rename's old hostname", () => {
    const assigned = { changeDescription: 'audit.domainAssigned' };
    const latest = { applicationId: 'app-1', versionId: null };
    const third = { applicationId: 'app-1', versionId: 'v3', versionNumber: 3 };
    expect(changeDetailInWords({ ...assigned, target: third, previousTarget: latest })).toBe('to: version 3 (was: latest version)');
    expect(changeDetailInWords({ ...assigned, target: latest })).toBe('to: latest version of application app-1 (was: nowhere)');
    expect(changeDetailInWords({ ...assigned, target: { applicationId: 'app-2', versionId: null }, previousTarget: third })).toBe('to: latest version of application app-2 (was: version 3 of application app-1)');
    expect(changeDetailInWords({ ...assigned, target: { applicationId: 'app-1', versionId: 'gone' }, previousTarget: third })).toBe('to: a version since removed (was: version 3)');
    expect(changeDetailInWords({ changeDescription: 'audit.updated', previousTitle: 'old.example.com' })).toBe('was: old.example.com');
    expect(changeDetailInWords({ changeDescription: 'audit.projectMoved' })).toBeUndefined();
    expect(changeDetailInWords({ changeDescription: 'audit.domainVerified', target: third })).toBeUndefined();
  });
});
