import { describe, expect, it } from 'vitest';
import { changeDetailInWords, changeInWords } from './change-words';

describe('change words', () => {
  it('say each change description the trail answers, and an unknown key as it is', () => {
    expect(changeInWords('audit.memberPermissionsChanged')).toBe('permissions changed');
    expect(changeInWords('audit.somethingNew')).toBe('audit.somethingNew');
  });

  const member = { changeDescription: 'audit.memberAdded' };
  it("say a membership change's permissions without their project's prefix, and nothing for a document's change", () => {
    expect(changeDetailInWords('p1', { ...member, permissions: ['p1::editors'] })).toBe('permissions: editors');
    expect(changeDetailInWords('p1', { ...member, permissions: [] })).toBe('permissions: none');
    expect(changeDetailInWords('p1', { ...member, permissions: ['p1::a', 'p1::b'], previousPermissions: [] })).toBe('permissions: a, b (were: none)');
    // Another project's permission (an action may name one) keeps its scope.
    expect(changeDetailInWords('p1', { ...member, permissions: ['p2::a'] })).toBe('permissions: p2::a');
    expect(changeDetailInWords('p1', { ...member, permissions: [], previousPermissions: ['p1::a'] })).toBe('had: a');
    expect(changeDetailInWords('p1', { changeDescription: 'audit.updated' })).toBeUndefined();
  });

  it("say where an assignment pointed a domain and where it pointed before, naming the application only when it changed, and a rename's old hostname", () => {
    const assigned = { changeDescription: 'audit.domainAssigned' };
    const latest = { applicationId: 'app-1', versionId: null };
    const third = { applicationId: 'app-1', versionId: 'v3', versionNumber: 3 };
    expect(changeDetailInWords('p1', { ...assigned, target: third, previousTarget: latest })).toBe('to: version 3 (was: latest version)');
    expect(changeDetailInWords('p1', { ...assigned, target: latest })).toBe('to: latest version of application app-1 (was: nowhere)');
    expect(changeDetailInWords('p1', { ...assigned, target: { applicationId: 'app-2', versionId: null }, previousTarget: third })).toBe('to: latest version of application app-2 (was: version 3 of application app-1)');
    expect(changeDetailInWords('p1', { ...assigned, target: { applicationId: 'app-1', versionId: 'gone' }, previousTarget: third })).toBe('to: a version since removed (was: version 3)');
    expect(changeDetailInWords('p1', { changeDescription: 'audit.updated', previousTitle: 'old.example.com' })).toBe('was: old.example.com');
    expect(changeDetailInWords('p1', { changeDescription: 'audit.projectMoved' })).toBeUndefined();
    expect(changeDetailInWords('p1', { changeDescription: 'audit.domainVerified', target: third })).toBeUndefined();
  });
});
