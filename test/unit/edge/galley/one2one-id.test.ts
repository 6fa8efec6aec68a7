import { describe, expect, it } from 'vitest';
import {
  localOne2OneId,
  MLS_ONE2ONE_NAMESPACE,
  one2OneConvId,
  PROTEUS_ONE2ONE_NAMESPACE,
} from '../../../../src/edge/galley/conversations/one2one-id.js';

const a = { id: '00000000-0000-4000-8000-000000000001', domain: 'example.com' };
const b = { id: 'ffffffff-ffff-4fff-bfff-ffffffffffff', domain: 'b.example.com' };

describe('deterministic 1:1 conversation ids', () => {
  it('local 1:1: word-wise sum with v4 bits, the same from both sides', () => {
    expect(localOne2OneId(a.id, b.id)).toBe('ffffffff-ffff-4fff-bfff-ffff00000000');
    expect(localOne2OneId(b.id, a.id)).toBe('ffffffff-ffff-4fff-bfff-ffff00000000');
  });

  it('federated 1:1: hash-based v5 id and owning domain (vectors from a re-implementation of wire-server)', async () => {
    expect(await one2OneConvId(PROTEUS_ONE2ONE_NAMESPACE, a, b)).toEqual({
      id: '17c482c7-c147-587d-a065-5e86fac880d5',
      domain: 'example.com',
    });
    expect(await one2OneConvId(MLS_ONE2ONE_NAMESPACE, b, a)).toEqual({
      id: '70c9b146-803d-5b3f-889a-f7341b66ef12',
      domain: 'b.example.com',
    });
    expect((await one2OneConvId(MLS_ONE2ONE_NAMESPACE, a, { ...b, domain: 'example.com' })).id).toBe(
      'a9b8ae93-ebbe-5741-a437-f5af468233af',
    );
  });
});
