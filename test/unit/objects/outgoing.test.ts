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
    // Each frame owns its bytes: a later frame does not change an earlier one still queued.
    expect(JSON.parse(text(a)).payload[0].data.text).toBe('héllo ✓ 😀');
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

  it('grows its scratch space for a frame larger than any before', () => {
    const p = new Payload('[', ']', false);
    p.awaitFrame('a', '"x"');
    const big = `"${'é'.repeat(100_000)}"`;
    expect(JSON.parse(text(p.awaitFrame('b', big))).payload).toEqual(['é'.repeat(100_000)]);
  });
});
