import { Resolver } from 'node:dns/promises';
import { verificationRecord } from '../domain/claim';
import type { DomainVerifier, VerificationOutcome } from './domain-verifier';

/** `resolveTxt` of node:dns: each TXT record as its character strings, in order. */
export type ResolveTxt = (name: string) => Promise<string[][]>;

/** Answers that mean "no such record" rather than "the lookup failed". */
const ABSENT_CODES = new Set(['ENODATA', 'ENOTFOUND']);

/** The system's DNS resolvers (/etc/resolv.conf), each query bounded by `timeoutMs`, tried twice. */
export function systemResolveTxt(timeoutMs: number): ResolveTxt {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  return (name) => resolver.resolveTxt(name);
}

/** Proof by DNS: a TXT record `_platform-verify.<hostname>` holding `platform-verify=<token>`. */
export class DnsTxtVerifier implements DomainVerifier {
  constructor(private readonly resolveTxt: ResolveTxt) {}

  async check(hostname: string, token: string): Promise<VerificationOutcome> {
    const expected = verificationRecord(hostname, token);
    let records: string[][];
    try {
      records = await this.resolveTxt(expected.name);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { proven: false, failure: typeof code === 'string' && ABSENT_CODES.has(code) ? 'no-record' : 'lookup-failed' };
    }
    // A long TXT value may arrive split into several character strings: they form one value.
    const values = records.map((strings) => strings.join('').trim());
    if (values.includes(expected.value)) return { proven: true };
    return { proven: false, failure: values.length === 0 ? 'no-record' : 'wrong-value' };
  }
}
