import { randomBytes } from 'node:crypto';
import { hashToken } from '@platform/kit';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** A user's second factor once it is on: the TOTP secret, the last time step used, unused recovery codes' hashes. */
export interface TwoFactor {
  secret: string;
  /** The last TOTP time step a sign-in used: a code is good once (RFC 6238, section 5.2). */
  lastCounter: number;
  recoveryCodeHashes: string[];
  enabledAt: number;
}

/** A secret shown to the user, waiting for a first code to prove the authenticator holds it. */
export interface PendingTwoFactor {
  secret: string;
  createdAt: number;
}

/** How a given code checks out: a time step of the secret, a recovery code, or neither. */
export type CodeMatch = { kind: 'totp'; counter: number } | { kind: 'recovery'; hash: string } | null;

const PERIOD_SECONDS = 30;
/** One step either side: the phone's clock may be half a minute off. */
const WINDOW = 1;
const RECOVERY_CODES = 10;

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS });

/** A new 160-bit secret, in base32 as authenticator apps take it. */
export function newTwoFactorSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What an authenticator app scans: the `otpauth://` URI and its QR code as SVG. */
export async function enrollment(secret: string, account: { issuer: string; label: string }): Promise<{ otpauthUri: string; qrCodeSvg: string }> {
  const uri = new TOTP({ issuer: account.issuer, label: account.label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS }).toString();
  return { otpauthUri: uri, qrCodeSvg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
}

/** The time step `code` is for, within one step of `now`; null when it is none of them. */
export function totpCounter(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

/** Checks a code typed at sign-in: a fresh TOTP code (newer than the last one used) or an unused recovery code. */
export function matchCode(factor: TwoFactor, typed: string, now: number): CodeMatch {
  const code = typed.replace(/\s+/g, '').toLowerCase();
  const counter = totpCounter(factor.secret, code, now);
  if (counter !== null) return counter > factor.lastCounter ? { kind: 'totp', counter } : null;
  const hash = hashToken(code.replace(/-/g, ''));
  return factor.recoveryCodeHashes.includes(hash) ? { kind: 'recovery', hash } : null;
}

/** Letters and digits people do not confuse (base32's): 5 bits a character. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Ten new recovery codes (`xxxxx-xxxxx`, 50 random bits each: sign-in attempts are throttled, and a
 * leaked copy of their SHA-256 hashes takes far longer to reverse than the codes are kept), and
 * their hashes, as stored.
 */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const plain = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
    return `${plain.slice(0, 5)}-${plain.slice(5)}`;
  });
  return { codes, hashes: codes.map((code) => hashToken(code.replace(/-/g, ''))) };
}
