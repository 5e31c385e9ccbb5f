import { describe, expect, it } from 'vitest';
import { redactUrlCredentials } from './url-redaction';

describe('redactUrlCredentials', () => {
  it.each([
    ['/api/realtime/projects/p1/sync?token=eyJwIjoxfQ.c2ln', '/api/realtime/projects/p1/sync?token=[redacted]'],
    ['/a?access_token=x&page=2', '/a?access_token=[redacted]&page=2'],
    ['/a?page=2&refreshToken=x&client_secret=y&api-key=z', '/a?page=2&refreshToken=[redacted]&client_secret=[redacted]&api-key=[redacted]'],
    ['/a?TOKEN=x', '/a?TOKEN=[redacted]'],
    ['/a?%74oken=x', '/a?%74oken=[redacted]'],
    ['/a?token', '/a?token=[redacted]'],
    ['/a?token=x&token=y', '/a?token=[redacted]&token=[redacted]'],
    ['/api/invitations/AbC-_9', '/api/invitations/[redacted]'],
    ['/api/invitations/AbC-_9/accept?token=x', '/api/invitations/[redacted]/accept?token=[redacted]'],
    ['/console/invitations/AbC-_9', '/console/invitations/[redacted]'],
    ['/console/sign-in?next=%2Finvitations%2FAbC-_9&x=1', '/console/sign-in?next=[redacted]&x=1'],
    ['/console/sign-in?next=/invitations/AbC-_9', '/console/sign-in?next=[redacted]'],
    [`/api/me?key=pat_${'a'.repeat(43)}&x=1`, '/api/me?key=[redacted]&x=1'],
    [`/api/projects?session=${'Ab-_'.repeat(10)}xyz`, '/api/projects?session=[redacted]'],
    [`/api/admin/dev/platform-owner/${'0f'.repeat(32)}`, '/api/admin/dev/platform-owner/[redacted]'],
    [`/a?owner=${'0f'.repeat(32)}`, '/a?owner=[redacted]'],
  ])('redacts the credential in %s', (url, logged) => {
    expect(redactUrlCredentials(url)).toBe(logged);
  });

  it.each(['/api/projects/p1/types/tasks/data?updatedAt=0&cursor=abc', '/a', '/a?', '/a?tokens=1&q=token', '/a?x=%E0%A4%A', '/api/me/invitations/inv1/accept', '/api/projects/p1/invitations/inv1', '/api/invitations/', `/a?id=${'a'.repeat(42)}`, '/a?id=3f2b8c1e-0d4a-4b6e-9c7f-1a2b3c4d5e6f'])('leaves %s as it is', (url) => {
    expect(redactUrlCredentials(url)).toBe(url);
  });
});
