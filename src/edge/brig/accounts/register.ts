import { endpoint } from '../../api/endpoint.js';
import { invitationStore, type InvitationRow } from '../invitations/invitation-store.js';
import { type MemberJoinNotice, memberJoinNotice, teamSize } from '../../galley/face.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { newCookieHeader } from '../auth/session.js';
import { codeStore } from '../codes/code-store.js';
import { newPasswordHash } from '../password/passwords.js';
import { clientIp } from '../password/rate-limit.js';
import { selfJson, selfUser, type UserRow } from '../users/user-json.js';
import { ACTIVATION_RETRIES, activationKeyOf, sendActivationCode } from './activation.js';
import { createAccount } from './create-account.js';
import { claimInvitedAccount } from '../invitations/scim-invitation.js';
import { newUser, validateNewUser } from './new-user.js';
import { guardJoinByInvitation, guardRegisterOrActivate } from '../domains/email-guards.js';
import { domainErrors } from '../../api/errors/domains.js';
import { deps } from '../../api/deps.js';
import { userByEmail } from '../users/user-names.js';

/**
 * `POST /register`: a personal user, a team creator (`team`), or an identity-less ephemeral user.
 * With `email_code` the address is verified now; without it the account waits for activation
 * and an activation code is mailed.
 */
export const register = endpoint(
  {
    name: 'register',
    method: 'post',
    path: '/register',
    auth: 'none',
    request: jsonBody(newUser),
    errors: [
      brigErrors.tooManyTeamMembers,
      brigErrors.invalidEmail,
      brigErrors.invalidPhone,
      brigErrors.invalidInvitationCode,
      brigErrors.userCreationRestricted,
      brigErrors.ephemeralUserCreationDisabled,
      brigErrors.missingIdentity,
      brigErrors.invalidActivationCode,
      brigErrors.keyExists,
      brigErrors.rateLimitExceeded,
      domainErrors.emailDomainGuard,
      domainErrors.invalidDomain,
    ],
    responses: { 201: { description: 'User created and pending activation', ...json(selfUser) } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const { optSettings } = config.brig;
    const db = database(c.env.DB);
    validateNewUser(body);

    const ephemeral = body.email === undefined;
    if (optSettings.setRestrictUserCreation && !ephemeral && body.team_code === undefined)
      throw new ApiError(brigErrors.userCreationRestricted);
    if (ephemeral && !optSettings.setEphemeralUserCreationEnabled)
      throw new ApiError(brigErrors.ephemeralUserCreationDisabled);
    // A team invitation: the address it was sent to is the one registered, and it counts as verified.
    let invitation: InvitationRow | undefined;
    if (body.team_code !== undefined) {
      if (body.email === undefined) throw new ApiError(brigErrors.missingIdentity);
      invitation = await invitationStore.byCode(db, body.team_code);
      if (invitation === undefined || invitation.email.toLowerCase() !== body.email.toLowerCase())
        throw new ApiError(brigErrors.invalidInvitationCode);
      // A SCIM invitation's account is a member already.
      if (invitation.invitee === null && (await teamSize(db, invitation.team)) >= config.galley.settings.maxTeamSize)
        throw new ApiError(brigErrors.tooManyTeamMembers);
      await guardJoinByInvitation(db, body.email, invitation.team);
    } else if (body.email !== undefined) await guardRegisterOrActivate(db, body.email);
    if (body.email !== undefined && (await userByEmail(c.env, body.email))?.activated)
      throw new ApiError(brigErrors.keyExists);

    let verified = invitation !== undefined;
    if (!verified && body.email !== undefined && body.email_code !== undefined) {
      const key = await activationKeyOf(body.email);
      const check = await codeStore.check(db, 'activation', key, body.email_code, ACTIVATION_RETRIES);
      if (!check.ok) throw new ApiError(brigErrors.invalidActivationCode);
      verified = true;
    }

    const passwordHash =
      body.password === undefined
        ? undefined
        : await newPasswordHash(c.env, config, { ip: clientIp(c.req.raw) }, body.password);
    const domain = deps(c).domain;
    // The account, the team queue's member-join and the user's user.activate are one change.
    let joined: MemberJoinNotice | undefined;
    const write = async (row: UserRow, change: Change) => {
      joined = invitation === undefined ? undefined : await memberJoinNotice(db, invitation.team, row.id);
      await commitChange(
        c.env,
        config,
        joinChanges(change, {
          statements: joined === undefined ? [] : [joined.statement],
          effects: verified ? [publishEffect([{ user: row.id }], userEvents.activate(selfJson(row, domain)))] : [],
        }),
      );
    };
    const invitee = invitation?.invitee ?? null;
    const user =
      invitee !== null
        ? await claimInvitedAccount(c.env, db, { ...invitation!, invitee }, passwordHash, write)
        : await createAccount(
            c.env,
            config,
            {
              name: body.name,
              email: body.email,
              emailVerified: verified,
              passwordHash,
              locale: body.locale,
              accentId: body.accent_id,
              assets: body.assets,
              supportedProtocols: body.supported_protocols,
              expiresIn: body.expires_in,
              newTeam: body.team && { name: body.team.name, icon: body.team.icon, iconKey: body.team.icon_key },
              invitation,
            },
            write,
          );
    await joined?.push(c.env, config);
    if (body.email !== undefined && !verified)
      await sendActivationCode(c.env, db, config, {
        email: body.email,
        user: user.id,
        name: user.name,
        locale: user.locale,
      });

    const cookie = await newCookieHeader(c, user.id, { kind: ephemeral ? 'session' : 'persistent', label: body.label });
    c.header('set-cookie', cookie);
    c.header('location', user.id);
    // The new record's address is shown even before activation (GET /self shows it once verified).
    return c.json({ ...selfJson(user, domain), ...(body.email === undefined ? {} : { email: body.email }) }, 201);
  },
);
