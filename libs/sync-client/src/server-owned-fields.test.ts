import { describe, expect, it } from 'vitest';
import { SERVER_SET_DOCUMENT_FIELDS, SYSTEM_FIELDS } from '@platform/documents';
import { SERVER_OWNED_FIELDS } from './records';

describe('server-owned fields', () => {
  it('are exactly the fields the data service refuses from clients in document writes', () => {
    expect([...SERVER_OWNED_FIELDS].sort()).toEqual([...SYSTEM_FIELDS, ...SERVER_SET_DOCUMENT_FIELDS].sort());
  });
});
