import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  modulusBytes,
  rsaFingerprint,
  rsaKeyOfSpki,
  spkiOfPem,
} from '../../../../src/shared/integrations/fingerprint.js';

// The contract's example of a ServiceKeyPEM and the Fingerprint it documents beside it.
const EXAMPLE_PEM = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu+Kg/PHHU3atXrUbKnw0
G06FliXcNt3lMwl2os5twEDcPPFw/feGiAKymxp+7JqZDrseS5D9THGrW+OQRIPH
WvUBdiLfGrZqJO223DB6D8K2Su/odmnjZJ2z23rhXoEArTplu+Dg9K+c2LVeXTKV
VPOaOzgtAB21XKRiQ4ermqgi3/njr03rXyq/qNkuNd6tNcg+HAfGxfGvvCSYBfiS
bUKr/BeArYRcjzr/h5m1In6fG/if9GEI6m8dxHT9JbY53wiksowy6ajCuqskIFg8
7X883H+LA/d6X5CTiPv1VMxXdBUiGPuC9IT/6CNQ1/LFt0P37ax58+LGYlaFo7la
nQIDAQAB
-----END PUBLIC KEY-----
`;

describe('integration key fingerprints', () => {
  it("match wire's documented fingerprint of the contract's example key", async () => {
    const key = await rsaKeyOfSpki(spkiOfPem(EXAMPLE_PEM)!);
    expect(key).toBeDefined();
    expect(modulusBytes(key!)).toBe(256);
    expect(await rsaFingerprint(key!)).toBe('ioy3GeIjgQRsobf2EKGO3O8mq/FofFxHRqy0T4ERIZ8=');
  });

  it('tell keys apart', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const key = await rsaKeyOfSpki(spkiOfPem(other)!);
    expect(await rsaFingerprint(key!)).not.toBe('ioy3GeIjgQRsobf2EKGO3O8mq/FofFxHRqy0T4ERIZ8=');
  });

  it('refuse what is not an RSA public key in PEM', async () => {
    expect(spkiOfPem('not a key')).toBeUndefined();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    expect(await rsaKeyOfSpki(spkiOfPem(ec)!)).toBeUndefined();
  });
});
