import { describe, expect, it } from 'vitest';
import { legacyStrategy } from '../../../../src/edge/galley/messaging/legacy-strategy.js';

const d = 'example.com';
const [u1, u2] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

describe('legacy /otr/messages strategy', () => {
  it('body report_missing wins, even empty', () => {
    expect(legacyStrategy([u1], { ignore_missing: 'true' }, d)).toEqual({
      kind: 'report_only',
      users: [{ id: u1, domain: d }],
    });
    expect(legacyStrategy([], {}, d)).toEqual({ kind: 'report_only', users: [] });
  });
  it('then ignore_missing: true, false or a list', () => {
    expect(legacyStrategy(undefined, { ignore_missing: 'true', report_missing: 'true' }, d)).toEqual({
      kind: 'ignore_all',
    });
    expect(legacyStrategy(undefined, { ignore_missing: 'false' }, d)).toEqual({ kind: 'ignore_only', users: [] });
    expect(legacyStrategy(undefined, { ignore_missing: `${u1},${u2}` }, d)).toEqual({
      kind: 'ignore_only',
      users: [
        { id: u1, domain: d },
        { id: u2, domain: d },
      ],
    });
  });
  it('then report_missing, else report all', () => {
    expect(legacyStrategy(undefined, { report_missing: 'false' }, d)).toEqual({ kind: 'report_only', users: [] });
    expect(legacyStrategy(undefined, { report_missing: u2 }, d)).toEqual({
      kind: 'report_only',
      users: [{ id: u2, domain: d }],
    });
    expect(legacyStrategy(undefined, {}, d)).toEqual({ kind: 'report_all' });
  });
});
