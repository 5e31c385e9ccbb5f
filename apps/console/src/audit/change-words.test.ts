import { describe, expect, it } from 'vitest';
import { changeInWords, permissionsInWords } from './change-words';

describe('change words', () => {
  it('say each change description the trail answers, and an unknown key as it is', () => {
    expect(changeInWords('audit.memberPermissionsChanged')).toBe('permissions changed');
    expect(changeInWords('audit.somethingNew')).toBe('audit.somethingNew');
  });

  it("say a membership change's permissions without their project's prefix, and nothing for other changes", () => {
    expect(permissionsInWords({ permissions: ['p1::editors'] })).toBe('permissions: editors');
    expect(permissionsInWords({ permissions: [] })).toBe('permissions: none');
    expect(permissionsInWords({ permissions: ['p1::a', 'p1::b'], previousPermissions: [] })).toBe('permissions: a, b (were: none)');
    expect(permissionsInWords({ permissions: [], previousPermissions: ['p1::a'] })).toBe('had: a');
    expect(permissionsInWords({})).toBeUndefined();
  });
});
