import { describe, expect, it } from 'vitest';
import { refusalOf, refusedField } from './refusals';

describe('the field a refusal names', () => {
  it('takes a limit’s details.field, a schema problem’s field, or a modifier problem’s path without its operator', () => {
    expect(refusedField({ field: 'body', problems: [{ field: 'title' }] })).toEqual({ field: 'body' });
    expect(refusedField({ problems: [{ field: 'address.city', message: 'must be string' }, { field: 'title' }] })).toEqual({ field: 'address.city', fieldMessage: 'must be string' });
    expect(refusedField({ problems: [{ path: 'modifier.$set.title', message: 'operator keys are not allowed inside values' }] })).toEqual({ field: 'title', fieldMessage: 'operator keys are not allowed inside values' });
    expect(refusedField({ problems: [{ field: 'title', message: 42 }] })).toEqual({ field: 'title' });
  });

  it('passes on the schema rule a problem names (keyword and parameters), for a message in the application\'s own words', () => {
    const maxLength = { field: 'data.name', message: 'must NOT have more than 40 characters', keyword: 'maxLength', params: { limit: 40 } };
    expect(refusedField({ problems: [maxLength] })).toEqual({ field: 'data.name', fieldMessage: 'must NOT have more than 40 characters', rule: { keyword: 'maxLength', params: { limit: 40 } } });
    expect(refusedField({ problems: [{ field: 'title', message: 'is required', keyword: 'required' }] })).toEqual({ field: 'title', fieldMessage: 'is required', rule: { keyword: 'required', params: {} } });
    expect(refusedField({ problems: [{ field: 'title', message: 'x', keyword: 7, params: { limit: 1 } }] })).toEqual({ field: 'title', fieldMessage: 'x' });
    expect(refusedField({ problems: [{ field: 'title', message: 'x', keyword: 'type', params: ['string'] }] })).toEqual({ field: 'title', fieldMessage: 'x', rule: { keyword: 'type', params: {} } });
  });

  it('names none when the refusal names no document field', () => {
    expect(refusedField(undefined)).toBeUndefined();
    expect(refusedField({})).toBeUndefined();
    expect(refusedField({ problems: [] })).toBeUndefined();
    expect(refusedField({ problems: ['title'] })).toBeUndefined();
    expect(refusedField({ problems: [{ path: 'modifier' }] })).toBeUndefined();
    expect(refusedField({ field: 42 })).toBeUndefined();
  });

  it('keeps status, code and message beside it, and leaves the field out when there is none', () => {
    expect(refusalOf(400, { error: 'Invalid rating: must be <= 5', code: 'DATA_SCHEMA_VIOLATION', details: { problems: [{ field: 'rating', message: 'must be <= 5' }] } })).toEqual({
      status: 400,
      code: 'DATA_SCHEMA_VIOLATION',
      message: 'Invalid rating: must be <= 5',
      field: 'rating',
      fieldMessage: 'must be <= 5',
    });
    const broken = { field: 'rating', message: 'must be <= 5', keyword: 'maximum', params: { comparison: '<=', limit: 5 } };
    expect(refusalOf(400, { error: 'Invalid rating: must be <= 5', details: { problems: [broken] } }).rule).toEqual({ keyword: 'maximum', params: { comparison: '<=', limit: 5 } });
    expect(refusalOf(403, { error: 'Forbidden', code: 'DATA_FORBIDDEN' })).toEqual({ status: 403, code: 'DATA_FORBIDDEN', message: 'Forbidden' });
    expect(refusalOf(400, undefined)).toEqual({ status: 400, code: undefined, message: '' });
  });
});
