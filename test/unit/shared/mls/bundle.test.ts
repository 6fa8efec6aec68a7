import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import { decodeMessageStream } from '../../../../src/shared/mls/messages.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
});

/** The protocol error splitting `body` gives. */
function splitError(body: Uint8Array): { label: string; message: string } {
  try {
    splitCommitBundle(body);
  } catch (err) {
    if (err instanceof MlsError) return { label: err.label, message: err.message };
    throw err;
  }
  throw new Error('the bundle split');
}

describe('decodeMessageStream', () => {
  it('decodes MLSMessages back to back, each with its own bytes', () => {
    const messages = decodeMessageStream(concatBytes(group.addCommit, group.welcome, group.groupInfo));
    expect(messages.map((m) => m.message.wireformat)).toEqual(['mls_public_message', 'mls_welcome', 'mls_group_info']);
    expect(messages.map((m) => m.bytes)).toEqual([group.addCommit, group.welcome, group.groupInfo]);
  });

  it('finds no message in an empty body', () => {
    expect(decodeMessageStream(new Uint8Array())).toEqual([]);
  });

  it('refuses garbage, and a body cut short, naming the offset where decoding failed', () => {
    const garbage = new Uint8Array([0, 1, 0, 9, 1, 2, 3]);
    expect(() => decodeMessageStream(garbage)).toThrow(
      new MlsError('mls-protocol-error', 'Malformed MLS message at byte 0'),
    );
    const cut = concatBytes(group.addCommit, group.groupInfo).subarray(0, -1);
    expect(() => decodeMessageStream(cut)).toThrow(`Malformed MLS message at byte ${group.addCommit.length}`);
  });

  it('turns every cut and every flipped byte of a bundle into a result or an MlsError, never another error', () => {
    const body = concatBytes(group.addCommit, group.welcome, group.groupInfo);
    const outcome = (bytes: Uint8Array) => {
      try {
        return splitCommitBundle(bytes) && 'split';
      } catch (err) {
        return err instanceof MlsError ? err.label : String(err);
      }
    };
    const outcomes = new Set<string>();
    for (let i = 0; i < body.length; i++) {
      outcomes.add(outcome(body.subarray(0, i)));
      const flipped = body.slice();
      flipped[i]! ^= 0xff;
      outcomes.add(outcome(flipped));
    }
    expect([...outcomes].sort()).toEqual(['mls-protocol-error', 'split']);
  });
});

describe('splitCommitBundle', () => {
  it('splits commit, Welcome and GroupInfo in any order, storing the GroupInfo without its MLSMessage header', () => {
    const bundle = splitCommitBundle(concatBytes(group.groupInfo, group.welcome, group.addCommit));
    expect(bundle.commit.bytes).toEqual(group.addCommit);
    expect(bundle.commit.content.contentType).toBe('commit');
    expect(bundle.welcome?.bytes).toEqual(group.welcome);
    expect(bundle.groupInfo.bytes).toEqual(group.groupInfo.subarray(4));
    expect(bundle.groupInfo.groupInfo.groupContext.epoch).toBe(1n);
    expect(bundle.privateMessage).toBeUndefined();
  });

  it('takes a bundle without Welcome, and one with a PrivateMessage', () => {
    expect(splitCommitBundle(concatBytes(group.addCommit, group.groupInfo)).welcome).toBeUndefined();
    const withMessage = splitCommitBundle(concatBytes(group.addCommit, group.groupInfo, group.application));
    expect(withMessage.privateMessage?.bytes).toEqual(group.application);
    expect(withMessage.privateMessage?.message.contentType).toBe('application');
  });

  it('requires exactly one commit and exactly one GroupInfo', () => {
    expect(splitError(new Uint8Array())).toEqual({ label: 'mls-protocol-error', message: 'Missing commit' });
    expect(splitError(concatBytes(group.addCommit, group.welcome)).message).toBe('Missing group info');
    expect(splitError(concatBytes(group.welcome, group.groupInfo)).message).toBe('Missing commit');
    const twoCommits = concatBytes(group.addCommit, group.commitByReference, group.groupInfo);
    expect(splitError(twoCommits).message).toBe('Redundant occurrence of commit');
    const twoGroupInfos = concatBytes(group.addCommit, group.groupInfo, group.groupInfo);
    expect(splitError(twoGroupInfos).message).toBe('Redundant occurrence of group info');
  });

  it('allows at most one Welcome and one PrivateMessage', () => {
    const twoWelcomes = concatBytes(group.addCommit, group.welcome, group.welcome, group.groupInfo);
    expect(splitError(twoWelcomes).message).toBe('Redundant occurrence of welcome');
    const twoMessages = concatBytes(group.addCommit, group.groupInfo, group.application, group.application);
    expect(splitError(twoMessages).message).toBe('Redundant occurrence of application message');
  });

  it('refuses a public proposal and a KeyPackage inside a bundle', () => {
    expect(splitError(concatBytes(group.addCommit, group.proposal, group.groupInfo))).toEqual({
      label: 'mls-protocol-error',
      message: 'unexpected proposal',
    });
    expect(splitError(concatBytes(group.addCommit, group.keyPackageMessage, group.groupInfo)).message).toBe(
      'unexpected message type',
    );
  });

  it('counts a commit sent as PrivateMessage as the private part, so the public commit is missing', () => {
    expect(splitError(concatBytes(group.privateCommit, group.groupInfo)).message).toBe('Missing commit');
  });

  it('refuses a bundle with garbage after its parts', () => {
    const body = concatBytes(group.addCommit, group.groupInfo, new Uint8Array([0, 1]));
    expect(splitError(body).message).toMatch(/^Malformed MLS message/);
  });
});
