import type { GroupClient, GroupLeaf } from '../../../shared/mls/delivery.js';
import type { GroupIndex, GroupRow } from './group-row.js';

export const userKey = (c: { domain: string; user: string }) => `${c.domain}/${c.user}`;
export const clientKey = (c: GroupClient) => `${c.domain}/${c.user}/${c.client}`;

export function indexOf(group: GroupRow, localDomain: string): GroupIndex {
  if (group.index !== undefined) return group.index;
  const index: GroupIndex = { leafOf: new Map(), leavesOf: new Map(), remote: 0 };
  for (const l of group.leaves.values()) add(index, l, localDomain);
  group.index = index;
  return index;
}

function add(index: GroupIndex, l: GroupLeaf, localDomain: string): void {
  index.leafOf.set(clientKey(l), l.index);
  const user = userKey(l);
  const mine = index.leavesOf.get(user);
  if (mine === undefined) index.leavesOf.set(user, new Set([l.index]));
  else mine.add(l.index);
  if (l.domain !== localDomain) index.remote++;
}

/** The index after a commit removed and added these leaves. */
export function moveIndex(
  index: GroupIndex,
  removed: readonly GroupLeaf[],
  added: readonly GroupLeaf[],
  localDomain: string,
): void {
  for (const l of removed) {
    index.leafOf.delete(clientKey(l));
    const mine = index.leavesOf.get(userKey(l));
    mine?.delete(l.index);
    if (mine?.size === 0) index.leavesOf.delete(userKey(l));
    if (l.domain !== localDomain) index.remote--;
  }
  for (const l of added) add(index, l, localDomain);
}
