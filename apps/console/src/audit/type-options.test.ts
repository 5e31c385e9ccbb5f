import { describe, expect, it } from 'vitest';
import { typeOptions } from './type-options';

describe('typeOptions', () => {
  it('labels each type with its name, as the trail rows do', () => {
    expect(typeOptions([{ id: 'tasks', name: 'Tasks' }, { id: 'notes', name: ' Notes ' }])).toEqual([
      { id: 'tasks', label: 'Tasks' },
      { id: 'notes', label: 'Notes' },
    ]);
  });

  it('adds the id where the name does not tell types apart: shared by several, or blank', () => {
    expect(typeOptions([{ id: 'a', name: 'Orders' }, { id: 'b', name: 'Orders' }, { id: 'Orders', name: 'Orders' }, { id: 'c', name: ' ' }, { id: 'd' }])).toEqual([
      { id: 'a', label: 'Orders (a)' },
      { id: 'b', label: 'Orders (b)' },
      { id: 'Orders', label: 'Orders' },
      { id: 'c', label: 'c' },
      { id: 'd', label: 'd' },
    ]);
  });
});
