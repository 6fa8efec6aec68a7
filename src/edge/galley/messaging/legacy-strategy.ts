import type { MismatchStrategy } from '../../../shared/codecs/otr.js';

/**
 * The mismatch strategy of a legacy `/otr/messages` request: the body's `report_missing` wins
 * (an empty JSON list counts), then `ignore_missing`, then `report_missing` in the query; each
 * query value is `true`, `false` or a comma-separated list of user ids.
 */
export function legacyStrategy(
  bodyReportMissing: string[] | undefined,
  query: { ignore_missing?: string | undefined; report_missing?: string | undefined },
  domain: string,
): MismatchStrategy {
  const users = (ids: string[]) => ids.map((id) => ({ id, domain }));
  const list = (v: string) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (bodyReportMissing !== undefined) return { kind: 'report_only', users: users(bodyReportMissing) };
  const ignore = query.ignore_missing;
  if (ignore !== undefined) {
    if (ignore === 'true') return { kind: 'ignore_all' };
    if (ignore === 'false') return { kind: 'ignore_only', users: [] };
    return { kind: 'ignore_only', users: users(list(ignore)) };
  }
  const report = query.report_missing;
  if (report !== undefined) {
    if (report === 'true') return { kind: 'report_all' };
    if (report === 'false') return { kind: 'report_only', users: [] };
    return { kind: 'report_only', users: users(list(report)) };
  }
  return { kind: 'report_all' };
}
