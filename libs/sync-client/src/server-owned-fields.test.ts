import { describe, expect, it } from 'vitest';
import { ID_PATTERN, SERVER_SET_DOCUMENT_FIELDS, SYSTEM_FIELDS } from '@platform/documents';
import { ENTITY_ID_PATTERN, SERVER_OWNED_FIELDS } from './records';

describe("the data service's rules the client repeats", () => {
  it('server-owned fields are exactly the fields the data service refuses from clients in document writes', () => {
    expect([...SERVER_OWNED_FIELDS].sort()).toEqual([...SYSTEM_FIELDS, ...SERVER_SET_DOCUMENT_FIELDS].sort());
  });

  it('ids are checked by the pattern the data service takes (the client cannot import it: the SDK ships without the server)', () => {
    expect(ENTITY_ID_PATTERN.source).toBe(ID_PATTERN.source);
    expect(ENTITY_ID_PATTERN.flags).toBe(ID_PATTERN.flags);
  });
});
