import { encodeGroupInfo, type GroupInfo } from 'ts-mls/groupInfo.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import {
  decodeGroupInfoBytes,
  type GroupInfoContents,
  leafAt,
  readGroupInfo,
  verifyGroupInfoSignature,
} from '../../../../src/shared/mls/group-info.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages, withUnusableLeafKey } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
let info: GroupInfoContents;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
  info = readGroupInfo(splitCommitBundle(concatBytes(group.addCommit, group.groupInfo)).groupInfo);
});

const protocolError = (message: string) => new MlsError('mls-protocol-error', message);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The GroupInfo bytes the backend would store, after `change` to the decoded GroupInfo. */
const storedAfter = (change: (gi: GroupInfo) => GroupInfo) => encodeGroupInfo(change(info.groupInfo));

describe('reading a GroupInfo', () => {
  it('gives suite, group, epoch, signer and the occupied leaves with their credentials', () => {
    expect(info).toMatchObject({ suite: 1, groupId: group.groupId, epoch: 1n, signer: 0, extensions: [] });
    const leaves = info.leaves.map((leaf) => ({
      index: leaf.index,
      identity: leaf.credential.credentialType === 'basic' ? text(leaf.credential.identity) : undefined,
      keySize: leaf.signatureKey.length,
    }));
    expect(leaves).toEqual([
      { index: 0, identity: 'alice', keySize: 32 },
      { index: 1, identity: 'bob', keySize: 32 },
    ]);
    expect(leafAt(info, 1)?.credential).toEqual(info.leaves[1]!.credential);
    expect(leafAt(info, 2)).toBeUndefined();
  });

  it('decodes stored bytes to the same GroupInfo, refusing garbage and trailing bytes', () => {
    const stored = encodeGroupInfo(info.groupInfo);
    expect(readGroupInfo(decodeGroupInfoBytes(stored)).leaves).toEqual(info.leaves);
    expect(() => decodeGroupInfoBytes(stored.subarray(1))).toThrow(protocolError('Malformed GroupInfo'));
    const trailing = concatBytes(stored, new Uint8Array([0]));
    expect(() => decodeGroupInfoBytes(trailing)).toThrow(protocolError('Trailing bytes after GroupInfo'));
  });

  it('requires the ratchet tree, and one that decodes', () => {
    const withoutTree = splitCommitBundle(concatBytes(group.addCommit, group.groupInfoWithoutTree)).groupInfo;
    expect(() => readGroupInfo(withoutTree)).toThrow(protocolError('GroupInfo without a ratchet tree'));
    const badTree = storedAfter((gi) => ({
      ...gi,
      extensions: gi.extensions.map((e) =>
        e.extensionType === 'ratchet_tree' ? { ...e, extensionData: new Uint8Array([1, 9]) } : e,
      ),
    }));
    expect(() => readGroupInfo(decodeGroupInfoBytes(badTree))).toThrow(
      protocolError('Malformed ratchet tree in GroupInfo'),
    );
  });
});

describe('verifyGroupInfoSignature', () => {
  it("accepts the signer's signature", async () => {
    expect(await verifyGroupInfoSignature(info)).toBe(true);
  });

  it('refuses a GroupInfo whose signer leaf is blank', async () => {
    expect(await verifyGroupInfoSignature({ ...info, signer: 7 })).toBe(false);
  });

  it("refuses, without throwing, when the signer's key is unusable", async () => {
    expect(await verifyGroupInfoSignature(withUnusableLeafKey(info, 0))).toBe(false);
  });

  it('refuses a suite the backend does not support', async () => {
    await expect(verifyGroupInfoSignature({ ...info, suite: 3 })).rejects.toThrow(
      protocolError('Unsupported ciphersuite 0x0003'),
    );
  });
});
