import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { formErrors } from './form-errors';

const validation = (field: string, message: string) => new ApiError(400, 'VALIDATION_FAILED', `Invalid ${field}: ${message}`, { issues: [{ field, message }] });

describe('formErrors', () => {
  it("shows a validation issue beside its own field as what it says of the field", () => {
    expect(formErrors(validation('body.password', 'at least 8 characters'), ['email', 'password'])).toEqual({ fields: { password: 'At least 8 characters' } });
  });

  it('keeps the whole message for an issue deeper inside the field, so it still names the part', () => {
    const error = validation('body.access.read.userIds', 'expected array');
    expect(formErrors(error, ['access'])).toEqual({ fields: { access: 'Invalid body.access.read.userIds: expected array' } });
  });

  it("keeps a service error's own sentence beside the field it names, and puts an error naming no known field on the form", () => {
    const taken = new ApiError(409, 'IDENTITY_EMAIL_TAKEN', 'An account with this email already exists', { field: 'email' });
    expect(formErrors(taken, ['email', 'password'])).toEqual({ fields: { email: 'An account with this email already exists' } });
    expect(formErrors(validation('body.tenant', 'required'), ['email'])).toEqual({ fields: {}, form: 'Invalid body.tenant: required' });
    expect(formErrors(new Error('offline'), ['email'])).toEqual({ fields: {}, form: 'offline' });
  });
});
