import { afterAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { wireError } from '../../helpers/http.js';
import { testIdp } from '../../helpers/saml-idp.js';
import { signIn } from '../../helpers/saml-login.js';
import { login, teamOwner } from '../../helpers/users.js';
import { getTeamFeature } from '../../helpers/endpoints/galley.js';
import { createIdp } from '../../helpers/endpoints/spar.js';

const ssoDefault = (value: string): Edit => ['galley.yaml', ['settings', 'featureFlags', 'sso'], value];

describe('spar: the sso default switched from enabled to disabled', () => {
  let b: TestBackend | undefined;
  afterAll(async () => b?.stop());

  it('keeps registered IdPs working, and refuses new ones', async () => {
    const first = await startEditedBackend([ssoDefault('enabled-by-default')]);
    const owner = await teamOwner(first.publicUrl, first.internalUrl);
    const idp = await testIdp();
    const created = await createIdp(
      first.publicUrl,
      owner.token,
      {
        value: idp.metadata,
      },
      { api_version: 'v2' },
    );
    expect(created.status, created.text).toBe(201);
    await first.stop();

    b = await startEditedBackend([ssoDefault('disabled-by-default')], { stateDir: first.stateDir });
    const token = (await login(b.publicUrl, owner.email, owner.password)).token;
    expect((await getTeamFeature(b.publicUrl, token, owner.team, 'sso')).body.status).toBe('disabled');
    const cookie = await signIn(
      b.publicUrl,
      idp,
      created.body.id,
      `grace-${crypto.randomUUID().slice(0, 8)}@corp.example`,
    );
    expect(cookie).toMatch(/^zuid=/);
    expect(
      await createIdp(
        b.publicUrl,
        token,
        {
          value: (await testIdp()).metadata,
        },
        { api_version: 'v2' },
      ),
    ).toMatchObject({ status: 403, body: wireError(403, 'sso-disabled') });
  });
});
