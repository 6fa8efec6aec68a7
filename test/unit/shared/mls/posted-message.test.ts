import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import { readCommit } from '../../../../src/shared/mls/commit.js';
import { classifyPostedMessage, type PublicProposal } from '../../../../src/shared/mls/messages.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { proposalRef } from '../../../../src/shared/mls/removal.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
});

function postedProposal(body: Uint8Array): PublicProposal {
  const posted = classifyPostedMessage(body);
  if (posted.kind !== 'proposal') throw new Error(`a ${posted.kind}, not a proposal`);
  return posted.proposal;
}

describe('classifyPostedMessage', () => {
  it("takes a member's public proposal", () => {
    const proposal = postedProposal(group.proposal);
    expect(proposal.bytes).toEqual(group.proposal);
    expect(proposal.content).toMatchObject({ epoch: 1n, sender: { senderType: 'member', leafIndex: 1 } });
    expect(proposal.content.proposal.proposalType).toBe('add');
  });

  it('takes an application message in a PrivateMessage', () => {
    const posted = classifyPostedMessage(group.application);
    expect(posted.kind).toBe('application');
    if (posted.kind === 'application') expect(posted.application.message).toMatchObject({ epoch: 1n });
  });

  it.each([
    ['addCommit', 'public commit'],
    ['privateCommit', 'private commit'],
    ['welcome', 'welcome'],
    ['groupInfo', 'group info'],
    ['keyPackageMessage', 'key package'],
  ] as const)('refuses a %s as unsupported (422)', (name, kind) => {
    expect(() => classifyPostedMessage(group[name])).toThrow(
      new MlsError('mls-unsupported-message', `Unsupported message: ${kind}`),
    );
  });

  it('refuses garbage, and a second message or trailing bytes after the first, as protocol errors', () => {
    const protocolError = (body: Uint8Array) => {
      try {
        classifyPostedMessage(body);
      } catch (err) {
        return err instanceof MlsError && err.label === 'mls-protocol-error' ? err.message : String(err);
      }
    };
    expect(protocolError(new Uint8Array([0, 1, 0, 1, 7]))).toBe('Malformed MLS message');
    expect(protocolError(concatBytes(group.proposal, group.proposal))).toBe('Trailing bytes after MLS message');
    expect(protocolError(concatBytes(group.proposal, new Uint8Array([0])))).toBe('Trailing bytes after MLS message');
  });
});

describe('proposalRef', () => {
  it("is the ref the committer cites: the member's proposal without its membership tag", async () => {
    const commit = await readCommit(splitCommitBundle(concatBytes(group.commitByReference, group.groupInfo)).commit);
    const proposal = postedProposal(group.proposal);
    expect(proposal.message).toHaveProperty('membershipTag');
    expect(commit.references).toEqual([await proposalRef(1, proposal)]);
  });

  it('refuses a suite the backend does not support', async () => {
    await expect(proposalRef(3, postedProposal(group.proposal))).rejects.toThrow(
      new MlsError('mls-protocol-error', 'Unsupported ciphersuite 0x0003'),
    );
  });
});
