// wire's GalleyError: how an owner names, in a federation answer, why it refused a remote member's
// action; and the error this backend gives its own caller for each.
import type { ErrorSpec } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';

const NAMED: Array<[string, ErrorSpec]> = [
  ['ConvNotFound', galleyErrors.noConversation],
  ['ConvMemberNotFound', galleyErrors.noConversationMember],
  ['ActionDenied', galleyErrors.actionDenied],
  ['InvalidOperation', galleyErrors.invalidOp],
  ['ConvAccessDenied', galleyErrors.accessDenied],
  ['NotConnected', galleyErrors.notConnected],
  ['MLSProtocolErrorTag', mlsErrors.mlsProtocolError],
  ['MLSSubConvUnsupportedConvType', mlsErrors.mlsSubconvUnsupportedConvType],
];

/** The GalleyError constructor of an error (MLS ones by their label: `mls-stale-message` → `MLSStaleMessage`). */
export function galleyErrorTag(spec: ErrorSpec): string {
  const named = NAMED.find(([, s]) => s.label === spec.label);
  if (named !== undefined) return named[0];
  const words = spec.label.replace(/^mls-/, '').split('-');
  return `MLS${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

const BY_TAG = new Map<string, ErrorSpec>([
  ...NAMED,
  ...Object.values(mlsErrors).map((spec): [string, ErrorSpec] => [galleyErrorTag(spec), spec]),
]);

/** The error a GalleyError stands for; undefined for one this backend does not know. */
export const errorOfGalleyTag = (tag: unknown): ErrorSpec | undefined =>
  typeof tag === 'string' ? BY_TAG.get(tag) : undefined;
