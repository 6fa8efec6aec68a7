import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { makeProposalRef } from 'ts-mls/authenticatedContent.js';
import { verifyFramedContentSignature } from 'ts-mls/framedContent.js';
import type { GroupContext } from 'ts-mls/groupContext.js';
import { describe, expect, it } from 'vitest';
import { classifyPostedMessage } from '../../../../src/shared/mls/messages.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { signRemoveProposal } from '../../../../src/shared/mls/removal.js';
import { suiteImpl } from '../../../../src/shared/mls/suites.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const CURVES = { 1: ed25519, 2: p256, 5: p521, 7: p384 } as const;
const groupId = new Uint8Array(40).fill(0xab);

function removalFor(suite: keyof typeof CURVES, leafIndex = 1, epoch = 1n) {
  const secretKey = CURVES[suite].utils.randomSecretKey();
  const request = { suite, signingKey: secretKey, groupId, epoch, leafIndex };
  return { publicKey: CURVES[suite].getPublicKey(secretKey), removal: signRemoveProposal(request) };
}

describe('signRemoveProposal', () => {
  it('lays the proposal out as wire-server does: external sender 0, empty authenticated data, no membership tag', async () => {
    const { removal } = removalFor(1, 5, 0x0102n);
    const { message } = await removal;
    const expected = [
      '0001 0001', // mls10, PublicMessage
      `28 ${hex(groupId)}`, // group id
      '0000000000000102', // epoch
      '02 00000000', // sender: external, index 0
      '00', // authenticated data: empty
      '02 0003 00000005', // proposal: Remove leaf 5
      '40 40', // signature: 64 bytes, then nothing
    ]
      .join('')
      .replaceAll(' ', '');
    expect(hex(message.subarray(0, expected.length / 2))).toBe(expected);
    expect(message.length).toBe(expected.length / 2 + 64);
  });

  it.each([1, 2, 5, 7] as const)('signs with the removal key of suite %i', async (suite) => {
    const { publicKey, removal } = removalFor(suite);
    const { message, ref } = await removal;
    const posted = classifyPostedMessage(message);
    if (posted.kind !== 'proposal') throw new Error('not a proposal');
    const { content, message: publicMessage } = posted.proposal;
    expect(content).toMatchObject({ epoch: 1n, sender: { senderType: 'external', senderIndex: 0 } });
    expect(content.proposal).toEqual({ proposalType: 'remove', remove: { removed: 1 } });
    const impl = await suiteImpl(suite);
    const noContext = { version: 'mls10' } as GroupContext; // an external sender's signature covers none
    const verified = verifyFramedContentSignature(
      publicKey,
      'mls_public_message',
      content,
      publicMessage.auth,
      noContext,
      impl.signature,
    );
    expect(await verified).toBe(true);
    expect(ref).toEqual(
      await makeProposalRef({ wireformat: 'mls_public_message', content, auth: publicMessage.auth }, impl.hash),
    );
  });

  it('refuses a suite the backend does not support', async () => {
    const request = { suite: 3, signingKey: new Uint8Array(32), groupId, epoch: 1n, leafIndex: 0 };
    await expect(signRemoveProposal(request)).rejects.toThrow(
      new MlsError('mls-protocol-error', 'Unsupported ciphersuite 0x0003'),
    );
  });
});
