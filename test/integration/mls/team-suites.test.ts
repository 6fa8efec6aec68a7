import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { bytesOf, claimKeyPackages, type MlsDevice, mlsDevice, uploadKeyPackages } from '../../helpers/mls.js';
import { invitedMember, type TeamOwner, teamOwner, type TestUser } from '../../helpers/users.js';
import { getMLSPublicKeys, postConversation, putTeamFeature } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

describe("a team's mls feature: allowedCipherSuites", () => {
  let owner: TeamOwner;
  let member: TestUser;
  beforeAll(async () => {
    owner = await teamOwner(publicUrl, internalUrl);
    member = await invitedMember(publicUrl, owner);
    const config = {
      protocolToggleUsers: [],
      defaultProtocol: 'mls',
      supportedProtocols: ['proteus', 'mls'],
      allowedCipherSuites: [2],
      defaultCipherSuite: 2,
    };
    const put = await putTeamFeature(publicUrl, owner.token, owner.team, 'mls', {
      status: 'enabled',
      config,
    });
    expect(put.status, put.text).toBe(200);
  });

  /** A team MLS conversation whose first commit adds the member, from clients of `suite`. */
  async function firstCommit(suite: number): Promise<MlsDevice> {
    const [o, m] = [await mlsDevice(publicUrl, owner, suite), await mlsDevice(publicUrl, member, suite)];
    await uploadKeyPackages(publicUrl, m, 1);
    const r = await postConversation(publicUrl, o.token, {
      protocol: 'mls',
      name: `suite ${suite}`,
      qualified_users: [],
      team: { teamid: owner.team, managed: false },
    });
    expect(r.status, r.text).toBe(201);
    const scheme = suite === 2 ? 'ecdsa_secp256r1_sha256' : 'ed25519';
    const removal = (await getMLSPublicKeys(publicUrl, o.token)).body.removal[scheme];
    await o.mls.createConversation(bytesOf(r.body.group_id), bytesOf(removal));
    await o.mls
      .addClients(bytesOf(r.body.group_id), await claimKeyPackages(publicUrl, o, member, suite))
      .catch(() => undefined);
    return o;
  }

  it('refuses a first commit in a suite the team does not allow, and takes one in an allowed suite', async () => {
    expect((await firstCommit(1)).refused).toMatchObject({ status: 400, body: wireError(400, 'mls-protocol-error') });
    expect((await firstCommit(2)).refused).toBeUndefined();
  });
});
