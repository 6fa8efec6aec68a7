import { ratchetTreeFromExtension } from 'ts-mls/groupInfo.js';
import type { GroupInfoPart } from '../../src/shared/mls/group-info.js';

/**
 * The occupied leaves of a GroupInfo's ratchet tree, as its clients made it: the backend never
 * reads the tree, the tests compare its own view of the group with it.
 */
export function treeLeaves(part: GroupInfoPart) {
  const tree = ratchetTreeFromExtension(part.groupInfo);
  if (tree === undefined) throw new Error('GroupInfo without a ratchet tree');
  return tree.flatMap((node, i) =>
    i % 2 === 0 && node?.nodeType === 'leaf'
      ? [{ index: i / 2, credential: node.leaf.credential, signatureKey: node.leaf.signaturePublicKey }]
      : [],
  );
}
