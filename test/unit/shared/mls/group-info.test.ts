import { encodeGroupContext } from 'ts-mls/groupContext.js';
import { encodeGroupInfo } from 'ts-mls/groupInfo.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import {
  decodeGroupInfoBytes,
  type GroupInfoContents,
  type GroupInfoPart,
  readGroupInfo,
} from '../../../../src/shared/mls/group-info.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
let part: GroupInfoPart;
let info: GroupInfoContents;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
  part = splitCommitBundle(concatBytes(group.addCommit, group.groupInfo)).groupInfo;
  info = readGroupInfo(part);
});

const protocolError = (message: string) => new MlsError('mls-protocol-error', message);

describe('reading a GroupInfo', () => {
  it('gives suite, group, epoch, signer and the context extensions, leaving the tree undecoded', () => {
    expect(info).toMatchObject({ suite: 1, groupId: group.groupId, epoch: 1n, signer: 0, extensions: [] });
  });

  it('gives the GroupContext as encoded, the first field of the GroupInfo', () => {
    expect(info.context).toEqual(encodeGroupContext(part.groupInfo.groupContext));
    expect(part.bytes.subarray(0, info.context.length)).toEqual(info.context);
  });

  it('decodes stored bytes to the same GroupInfo, refusing garbage and trailing bytes', () => {
    const stored = encodeGroupInfo(part.groupInfo);
    expect(readGroupInfo(decodeGroupInfoBytes(stored))).toEqual(info);
    expect(() => decodeGroupInfoBytes(stored.subarray(1))).toThrow(protocolError('Malformed GroupInfo'));
    const trailing = concatBytes(stored, new Uint8Array([0]));
    expect(() => decodeGroupInfoBytes(trailing)).toThrow(protocolError('Trailing bytes after GroupInfo'));
  });

  it('requires the ratchet tree, which clients need to join', () => {
    const withoutTree = splitCommitBundle(concatBytes(group.addCommit, group.groupInfoWithoutTree)).groupInfo;
    expect(() => readGroupInfo(withoutTree)).toThrow(protocolError('GroupInfo without a ratchet tree'));
  });
});
