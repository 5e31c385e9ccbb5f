import { describe, expect, it } from 'vitest';
import { socketsCompatible as serverRule, socketTypes as serverTypes } from '../../../../../services/actions/src/domain/sockets';
import { socketsCompatible, socketTypes } from './socket-compatibility';

describe('socket compatibility in the editor', () => {
  it('knows the same socket types as the actions service', () => {
    expect([...socketTypes]).toEqual([...serverTypes]);
  });

  it('agrees with the actions service on every pair of socket types', () => {
    for (const source of serverTypes) {
      for (const target of serverTypes) expect({ source, target, allowed: socketsCompatible(source, target) }).toEqual({ source, target, allowed: serverRule(source, target) });
    }
  });

  it('lets anything into an object input, the same type through, and refuses the rest (T into T[] too)', () => {
    expect(socketsCompatible('number', 'object')).toBe(true);
    expect(socketsCompatible('string', 'string')).toBe(true);
    expect(socketsCompatible('number', 'string')).toBe(false);
    expect(socketsCompatible('string', 'string[]')).toBe(false);
  });
});
