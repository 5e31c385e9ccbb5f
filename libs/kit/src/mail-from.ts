import addressparser from 'nodemailer/lib/addressparser';

const MAILBOX = /^[^\s@<>",;:]+@[^\s@<>",;:]+$/;
const NOT_ONE_ADDRESS = 'must be one address, e.g. "Acme <no-reply@acme.example>" or no-reply@acme.example';

/**
 * Why `from` cannot be the sender of the platform's mails (one mailbox: `Name <address>` or
 * `address`), or undefined when it can. Checked at start-up: nodemailer takes any text and the
 * SMTP server refuses it only when the first mail is sent (a password reset nobody receives), or,
 * with an unquoted comma or a line break, sends a From or a header nobody meant.
 */
export function mailFromProblem(from: string): string | undefined {
  if (/[\u0000-\u001f\u007f]/.test(from)) return 'must be one line';
  const parsed = addressparser(from);
  // One mailbox, not a group (`Team: a@b;`).
  const mailbox = parsed.length === 1 && parsed[0] && !('group' in parsed[0]) ? (parsed[0] as addressparser.Address) : undefined;
  if (!mailbox || !MAILBOX.test(mailbox.address)) return NOT_ONE_ADDRESS;
  const trimmed = from.trim();
  // addressparser reads `x <a b@c>` as b@c: the address must be exactly what was written.
  if (trimmed !== mailbox.address && !trimmed.endsWith(`<${mailbox.address}>`)) return NOT_ONE_ADDRESS;
  return undefined;
}
