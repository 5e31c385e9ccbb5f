import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import type { SyncConflict } from '@platform/sync-client';
import { formErrors, noErrors, refusalErrors, takenBySdk, type FormErrors } from './form-errors';

const validation = (field: string, message: string) => new ApiError(400, 'VALIDATION_FAILED', `Invalid ${field}: ${message}`, { issues: [{ field, message }] });

describe('formErrors', () => {
  it("shows a validation issue beside its own field as what it says of the field", () => {
    expect(formErrors(validation('body.password', 'at least 8 characters'), ['email', 'password'])).toEqual({ fields: { password: 'At least 8 characters' } });
  });

  it('keeps the whole message for an issue deeper inside the field, so it still names the part', () => {
    const error = validation('body.access.read.userIds', 'expected array');
    expect(formErrors(error, ['access'])).toEqual({ fields: { access: 'Invalid body.access.read.userIds: expected array' } });
  });

  it("places an entity write's first problem beside its field too (types, applications, agents)", () => {
    const refused = new ApiError(400, 'DATA_SCHEMA_VIOLATION', 'Invalid name: must not be empty', { problems: [{ field: 'name', message: 'must not be empty' }, { field: 'instructions', message: 'too long' }] });
    expect(formErrors(refused, ['name', 'instructions'])).toEqual({ fields: { name: 'Must not be empty' } });
    const nested = new ApiError(400, 'DATA_SCHEMA_VIOLATION', 'Invalid modelOptions.temperature: must be at most 2', { problems: [{ field: 'modelOptions.temperature', message: 'must be at most 2' }] });
    expect(formErrors(nested, ['modelOptions'])).toEqual({ fields: { modelOptions: 'Invalid modelOptions.temperature: must be at most 2' } });
  });

  it("keeps a service error's own sentence beside the field it names, and puts an error naming no known field on the form", () => {
    const taken = new ApiError(409, 'IDENTITY_EMAIL_TAKEN', 'An account with this email already exists', { field: 'email' });
    expect(formErrors(taken, ['email', 'password'])).toEqual({ fields: { email: 'An account with this email already exists' } });
    expect(formErrors(validation('body.tenant', 'required'), ['email'])).toEqual({ fields: {}, form: 'Invalid body.tenant: required' });
    expect(formErrors(new Error('offline'), ['email'])).toEqual({ fields: {}, form: 'offline' });
  });
});

const rejected = (error: NonNullable<SyncConflict['error']>): SyncConflict => ({ reason: 'rejected', fields: [], error, at: 0 });

describe('refusalErrors', () => {
  const priority = { status: 400, code: 'DATA_SCHEMA_VIOLATION', message: 'Invalid priority: must be integer', field: 'priority', fieldMessage: 'must be integer' };

  it('shows beside a form field what the refusal says of that field', () => {
    expect(refusalErrors(rejected(priority), ['title', 'priority'])).toEqual({ fields: { priority: 'Must be integer' } });
  });

  it('keeps the whole message for a part deeper inside the field, or when the refusal says nothing of the field alone', () => {
    const city = { status: 400, message: 'Invalid address.city: must be string', field: 'address.city', fieldMessage: 'must be string' };
    expect(refusalErrors(rejected(city), ['address'])).toEqual({ fields: { address: 'Invalid address.city: must be string' } });
    const limit = { status: 400, message: 'The field title is longer than 100 characters', field: 'title' };
    expect(refusalErrors(rejected(limit), ['title'])).toEqual({ fields: { title: 'The field title is longer than 100 characters' } });
  });

  it("puts the whole message in the JSON editor's error when the type has no form, on the form when it names no form field, and nothing for other conflicts", () => {
    expect(refusalErrors(rejected(priority), undefined)).toEqual({ fields: { document: 'Invalid priority: must be integer' } });
    expect(refusalErrors(rejected({ status: 403, message: 'Forbidden' }), ['title'])).toEqual({ fields: {}, form: 'Forbidden' });
    expect(refusalErrors({ reason: 'revision', fields: [], at: 0 }, ['title'])).toBe(noErrors);
  });
});

describe('takenBySdk', () => {
  it("shows the SDK's refusal on the form and answers false; clears the errors and answers true when the change is taken", async () => {
    const shown: FormErrors[] = [];
    expect(await takenBySdk(() => Promise.reject(new Error('"id" is set by the server')), (errors) => shown.push(errors))).toBe(false);
    expect(await takenBySdk(() => Promise.resolve('queued'), (errors) => shown.push(errors))).toBe(true);
    expect(shown).toEqual([{ fields: {}, form: '"id" is set by the server' }, noErrors]);
  });
});
