import { describe, expect, it } from 'vitest';
import { payloadFor } from '../../../../src/edge/federation/client.js';

describe('queued notification bundles', () => {
  it('give each remote the payload of the highest version it speaks', () => {
    const bundle = { 0: 'v0', 1: 'v1' };
    expect(payloadFor(bundle, 0)).toEqual({ body: 'v0' });
    expect(payloadFor(bundle, 1)).toEqual({ body: 'v1' });
    expect(payloadFor(bundle, 2)).toEqual({ body: 'v1' });
  });
  it('have nothing for a remote older than every payload', () => {
    expect(payloadFor({ 1: 'v1' }, 0)).toBeUndefined();
    expect(payloadFor({ 2: null }, 2)).toEqual({ body: null });
  });
});
