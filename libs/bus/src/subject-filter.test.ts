import { describe, expect, it } from 'vitest';
import { subjectMatches } from './subject-filter';

describe('subjectMatches', () => {
  it.each([
    ['platform.docs.p1.t1.created', 'platform.docs.p1.t1.created', true],
    ['platform.docs.*.t1.created', 'platform.docs.p1.t1.created', true],
    ['platform.docs.>', 'platform.docs.p1.t1.created', true],
    ['platform.>', 'platform', false],
    ['platform.docs.*', 'platform.docs.p1.t1', false],
    ['platform.docs.p1', 'platform.docs.p1.t1', false],
    ['platform.docs.p1.t1.created', 'platform.docs.p1', false],
    ['platform.*.p1.>', 'platform.audit.p1.x', true],
    ['platform.doc.>', 'platform.docs.p1', false],
    ['platform.docs.>', 'platform.doc.p1', false],
    ['platform.docx', 'platform.docs', false],
    ['platform.*', 'platform.', true],
    ['platform.>.created', 'platform.docs.created', false],
    ['*', 'platform', true],
    ['*', 'platform.docs', false],
  ])('%s against %s is %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});
