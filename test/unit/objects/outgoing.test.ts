import { describe, expect, it } from 'vitest';
import { Payload } from '../../../src/objects/notifications/outgoing.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('Payload', () => {
  it("builds each recipient's /await frame from the shared parts and its own", () => {
    const p = new Payload('[{"type":"x","data":', '}]', false);
    const a = p.awaitFrame('id-1', '{"text":"héllo ✓ 😀"}');
    const b = p.awaitFrame('id-2', '{"text":"b"}');
    expect(JSON.parse(text(a))).toEqual({
      id: 'id-1',
      transient: false,
      payload: [{ type: 'x', data: { text: 'héllo ✓ 😀' } }],
    });
    expect(JSON.parse(text(b))).toEqual({
      id: 'id-2',
      transient: false,
      payload: [{ type: 'x', data: { text: 'b' } }],
    });
  });

  it('marks transient frames and serves recipients without a part of their own', () => {
    const p = new Payload('[{"type":"typing"}', ']', true);
    expect(JSON.parse(text(p.awaitFrame('id', '')))).toEqual({
      id: 'id',
      transient: true,
      payload: [{ type: 'typing' }],
    });
    expect(p.json('')).toBe('[{"type":"typing"}]');
  });
});
