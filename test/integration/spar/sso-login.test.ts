import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { testIdp, type TestIdp } from '../../helpers/saml-idp.js';
import { mailsTo } from '../../helpers/mailbox.js';
import {
  accessToken,
  finalize as finalizeAt,
  initiate as initiateAt,
  signIn,
  teamWithIdp,
} from '../../helpers/saml-login.js';
import { api, teamOwner, type TeamOwner } from '../../helpers/users.js';
import { getSelf, postAccess } from '../../helpers/endpoints/brig.js';
import { getTeamMembers } from '../../helpers/endpoints/galley.js';
import { createIdp, deleteIdp, getIdp } from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();

const initiate = (idp: string, query = '') => initiateAt(publicUrl, idp, query);
const finalize = (sp: string, samlResponse: string) => finalizeAt(publicUrl, sp, samlResponse);

async function selfOf(cookie: string) {
  return (await getSelf(publicUrl, await accessToken(publicUrl, cookie))).body;
}

describe('spar: SAML single sign-on with a real IdP', () => {
  let owner: TeamOwner;
  let idp: TestIdp;
  let idpId: string;

  const members = async () => (await getTeamMembers(publicUrl, owner.token, owner.team)).body.members as any[];

  beforeAll(async () => {
    ({ owner, idp, idpId } = await teamWithIdp(publicUrl, internalUrl));
  });

  let aliceCookie: string;

  it('creates the user on the first sign-in and signs the same user in again', async () => {
    const address = `Alice-${crypto.randomUUID().slice(0, 8)}@Corp.example`;
    const first = await initiate(idpId);
    expect(first.action).toBe('https://idp.test/sso');
    expect(first.sp).toBe(`http://127.0.0.1:8080/sso/finalize-login/${owner.team}`);
    const answer = await idp.respond({
      inResponseTo: first.id,
      recipient: first.sp,
      audience: first.sp,
      nameId: address,
    });
    const granted = await finalize(first.sp, answer);
    expect(granted.status, granted.text).toBe(200);
    expect(granted.title).toBe('wire:sso:success');
    expect(granted.text).toContain('postMessage({"type":"AUTH_SUCCESS"}');
    const alice = await selfOf(granted.cookie!);
    expect(alice).toMatchObject({
      name: address,
      team: owner.team,
      managed_by: 'wire',
      sso_id: {
        tenant: `<Issuer xmlns="urn:oasis:names:tc:SAML:2.0:assertion">${idp.entityId}</Issuer>`,
        subject: expect.stringContaining(`>${address}</NameID>`),
      },
    });
    expect((await members()).find((m) => m.user === alice.id)?.permissions).toEqual({ self: 1587, copy: 1587 });
    // validateSAMLemails (enabled by default): the NameID's address is mailed a validation code.
    expect(alice.email).toBeUndefined();
    expect(await mailsTo(publicUrl, address)).toHaveLength(1);
    aliceCookie = granted.cookie!;

    const again = await initiate(idpId);
    const second = await finalize(
      again.sp,
      await idp.respond({
        inResponseTo: again.id,
        recipient: again.sp,
        audience: again.sp,
        nameId: address.toLowerCase(),
      }),
    );
    expect(second.title).toBe('wire:sso:success');
    expect((await selfOf(second.cookie!)).id).toBe(alice.id);
  });

  it('refuses a replayed response, a tampered one, another key, a wrong audience and an expired assertion', async () => {
    const before = (await members()).length;
    const start = await initiate(idpId);
    const parts = { inResponseTo: start.id, recipient: start.sp, audience: start.sp, nameId: 'bob@corp.example' };
    const answer = await idp.respond(parts);

    const tampered = btoa(atob(answer).replace('bob@corp.example', 'mallory@corp.example'));
    const forged = await finalize(start.sp, tampered);
    expect(forged).toMatchObject({ status: 400, title: 'wire:sso:error:bad-response-signature', cookie: undefined });
    const impostor = await testIdp(idp.entityId);
    expect(await finalize(start.sp, await impostor.respond(parts))).toMatchObject({
      status: 400,
      title: 'wire:sso:error:bad-response-signature',
    });

    expect((await finalize(start.sp, answer)).title).toBe('wire:sso:success');
    const replayed = await finalize(start.sp, answer);
    expect(replayed).toMatchObject({ status: 200, title: 'wire:sso:error:forbidden', cookie: undefined });
    expect(replayed.text).toContain('"label":"forbidden"');

    const other = await initiate(idpId);
    const wrongAudience = await finalize(
      other.sp,
      await idp.respond({
        ...parts,
        inResponseTo: other.id,
        nameId: 'carol@corp.example',
        audience: 'https://elsewhere.example/sp',
      }),
    );
    expect(wrongAudience).toMatchObject({ status: 200, title: 'wire:sso:error:forbidden', cookie: undefined });
    expect(wrongAudience.text).toContain('bad Audience');

    const late = await initiate(idpId);
    const expired = await finalize(
      late.sp,
      await idp.respond({
        ...parts,
        inResponseTo: late.id,
        nameId: 'dave@corp.example',
        notBefore: new Date(Date.now() - 3_600_000),
        notOnOrAfter: new Date(Date.now() - 1_800_000),
      }),
    );
    expect(expired).toMatchObject({ status: 200, title: 'wire:sso:error:forbidden', cookie: undefined });
    // Only Bob's one granted sign-in made a member.
    expect(await members()).toHaveLength(before + 1);
  });

  it('sends an IdP-initiated sign-in to initiate-login, and bad input to an error page', async () => {
    const start = await initiate(idpId);
    const unsolicited = await finalize(
      start.sp,
      await idp.respond({ recipient: start.sp, audience: start.sp, nameId: 'erin@corp.example' }),
    );
    expect(unsolicited).toMatchObject({ status: 303, location: `/sso/initiate-login/${idpId}` });
    expect(await finalize(start.sp, '%%%not base64')).toMatchObject({ title: 'wire:sso:error:bad-response-encoding' });
    expect(await finalize(start.sp, btoa('<samlp:Response'))).toMatchObject({
      status: 400,
      title: 'wire:sso:error:bad-response-xml',
    });
    const stranger = await testIdp();
    expect(
      await finalize(
        start.sp,
        await stranger.respond({
          inResponseTo: start.id,
          recipient: start.sp,
          audience: start.sp,
          nameId: 'x@y.example',
        }),
      ),
    ).toMatchObject({ status: 404, title: 'wire:sso:error:not-found' });
  });

  it('redirects the mobile apps with the cookie and the user id, or the label', async () => {
    const query = `?success_redirect=${encodeURIComponent('wire://login-granted/?cookie=$cookie&userid=$userid')}&error_redirect=${encodeURIComponent('wire://login-failed/?label=$label')}`;
    const start = await initiate(idpId, query);
    const answer = await idp.respond({
      inResponseTo: start.id,
      recipient: start.sp,
      audience: start.sp,
      nameId: 'frank@corp.example',
    });
    const granted = await finalize(start.sp, answer);
    expect(granted.status).toBe(303);
    expect(granted.location).toMatch(/^wire:\/\/login-granted\/\?cookie=zuid=[^&]+.*&userid=[0-9a-f-]{36}$/);
    const frank = await selfOf(granted.cookie!);
    expect(granted.location).toContain(`userid=${frank.id}`);
    expect((await finalize(start.sp, answer)).location).toBe('wire://login-failed/?label=forbidden');

    const bad = (q: string) => fetch(new URL(`/sso/initiate-login/${idpId}${q}`, publicUrl)).then((r) => r.json());
    expect(await bad('?success_redirect=wire://a')).toEqual(wireError(400, 'need-both-redirect-urls'));
    expect(await bad('?success_redirect=https://a.example&error_redirect=wire://b')).toEqual(
      wireError(400, 'invalid-schema'),
    );
    expect(await bad(`?success_redirect=wire://${'a'.repeat(150)}&error_redirect=wire://b`)).toEqual(
      wireError(400, 'url-too-long'),
    );
    expect((await fetch(new URL(`/sso/initiate-login/${idpId}`, publicUrl), { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(new URL(`/sso/initiate-login/${crypto.randomUUID()}`, publicUrl))).status).toBe(404);
  });

  it('deletes an IdP only with its users (purge), whose cookies then stop working', async () => {
    expect(await deleteIdp(publicUrl, owner.token, idpId)).toMatchObject({
      status: 412,
      body: wireError(412, 'idp-has-bound-users'),
    });
    expect((await postAccess(publicUrl, undefined, aliceCookie)).status).toBe(200);
    expect((await deleteIdp(publicUrl, owner.token, idpId, { purge: true })).status).toBe(204);
    expect((await postAccess(publicUrl, undefined, aliceCookie)).status).toBe(403);
    expect((await getIdp(publicUrl, owner.token, idpId)).status).toBe(404);
  });

  it("moves a user to the new issuer of an IdP that replaced theirs, and refuses another team's user", async () => {
    const team = await teamWithIdp(publicUrl, internalUrl);
    const nameId = `heidi-${crypto.randomUUID().slice(0, 8)}@corp.example`;
    const first = await signIn(publicUrl, team.idp, team.idpId, nameId);
    const heidi = (await selfOf(first)).id;

    // The team moves to a new IdP (a new issuer) that replaces the old one.
    const next = await testIdp();
    const replaced = await api(publicUrl, team.owner.token).post(
      `/v8/identity-providers?api_version=v2&replaces=${team.idpId}`,
      { value: next.metadata },
    );
    expect(replaced.status, replaced.text).toBe(201);
    expect(replaced.body.extraInfo.oldIssuers).toEqual([team.idp.entityId]);
    expect((await selfOf(await signIn(publicUrl, next, replaced.body.id, nameId))).id).toBe(heidi);

    // Another team registers the same IdP (v2 issuers are per team): its NameID is someone else's.
    const other = await teamOwner(publicUrl, internalUrl);
    expect((await api(internalUrl).put(`/i/teams/${other.team}/features/sso`, { status: 'enabled' })).status).toBe(200);
    const same = await createIdp(
      publicUrl,
      other.token,
      {
        value: next.metadata,
      },
      { api_version: 'v2' },
    );
    expect(same.status, same.text).toBe(201);
    const started = await initiate(same.body.id);
    const answer = await next.respond({
      inResponseTo: started.id,
      recipient: started.sp,
      audience: started.sp,
      nameId,
    });
    const refused = await finalize(started.sp, answer);
    expect(refused.title).toBe('wire:sso:error:bad-team');
    expect(refused.cookie).toBeUndefined();
  });
});
