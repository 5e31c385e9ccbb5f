import { describe, expect, it } from 'vitest';
import { FakeDns } from '../testing/fake-dns';
import { DnsTxtVerifier } from './dns-txt-verifier';

describe('DnsTxtVerifier', () => {
  const name = '_platform-verify.shop.example.com';

  function verifierWith(records: Record<string, string[][]>) {
    const dns = new FakeDns();
    for (const [recordName, values] of Object.entries(records)) for (const strings of values) dns.publish(recordName, ...strings);
    return new DnsTxtVerifier(dns.resolveTxt);
  }

  it('is proven by a TXT record holding platform-verify=<token>, among others, also split in strings', async () => {
    expect(await verifierWith({ [name]: [['v=spf1 -all'], ['platform-verify=t1']] }).check('shop.example.com', 't1')).toEqual({ proven: true });
    expect(await verifierWith({ [name]: [['platform-', 'verify=t1']] }).check('shop.example.com', 't1')).toEqual({ proven: true });
  });

  it('looks only at the _platform-verify name of this hostname', async () => {
    const verifier = verifierWith({ 'shop.example.com': [['platform-verify=t1']], '_platform-verify.other.example.com': [['platform-verify=t1']] });
    expect(await verifier.check('shop.example.com', 't1')).toEqual({ proven: false, failure: 'no-record' });
  });

  it('refuses another token, a longer one, and a record naming no token', async () => {
    const verifier = verifierWith({ [name]: [['platform-verify=t2'], ['platform-verify=t1x'], ['platform-verify=']] });
    expect(await verifier.check('shop.example.com', 't1')).toEqual({ proven: false, failure: 'wrong-value' });
  });

  it.each([
    ['ENODATA', 'no-record'],
    ['ENOTFOUND', 'no-record'],
    ['ESERVFAIL', 'lookup-failed'],
    ['ETIMEOUT', 'lookup-failed'],
  ])('a lookup answering %s is %s', async (code, failure) => {
    const verifier = new DnsTxtVerifier(async () => {
      throw Object.assign(new Error(`queryTxt ${code}`), { code });
    });
    expect(await verifier.check('shop.example.com', 't1')).toEqual({ proven: false, failure });
  });
});
