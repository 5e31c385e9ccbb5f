import { describe, expect, it } from 'vitest';
import { mailFromProblem } from './mail-from';

describe('MAIL_FROM', () => {
  it.each(['Platform <no-reply@localhost>', 'no-reply@acme.example', '<no-reply@acme.example>', '"Acme, Inc" <no-reply@acme.example>', 'Acme Support <support+mail@acme.example>'])('takes %j', (from) => {
    expect(mailFromProblem(from)).toBeUndefined();
  });

  it.each([
    ['no-reply', 'must be one address'],
    ['', 'must be one address'],
    ['a@acme.example, b@acme.example', 'must be one address'],
    ['Team: a@acme.example;', 'must be one address'],
    ['Acme <a b@acme.example>', 'must be one address'],
    ['Acme <no-reply@acme.example', 'must be one address'],
    ['Acme <no-reply@acme.example>\r\nBcc: everyone@acme.example', 'must be one line'],
  ])('refuses %j', (from, problem) => {
    expect(mailFromProblem(from)).toContain(problem);
  });
});
