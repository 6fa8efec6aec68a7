// Provisioning as the team's SCIM client asks: with an IdP on the token, users who sign in
// through it (active at once); without one, invited users who set a password of their own.
import { ApiError } from '../../api/errors/api-error.js';
import {
  defaultUserLocale,
  deleteAccount,
  inviteProvisionedUser,
  isValidEmail,
  requestEmailChange,
  type UserRow,
  updateProvisionedUser,
  userByEmail,
  userByHandle,
  userById,
} from '../../brig/face.js';
import { type BatchStatement, runBatch } from '../../db/client.js';
import { changeMemberRole, featureEnabled, memberLeaveAudience, memberLeaveEffect } from '../../galley/face.js';
import { createTeamAccount } from '../team-account.js';
import { type NameId, NAMEID_EMAIL, NAMEID_UNSPECIFIED, nameIdKey, samlSsoId } from '../saml/saml-identity.js';
import { samlStore } from '../saml/saml-store.js';
import { type Scim, teamUser, viewOf } from './scim-context.js';
import { scimErrors } from './scim-error.js';
import type { ScimUserInput } from './scim-user-input.js';
import { scimUserBody } from './scim-user-json.js';
import { scimUserStore } from './scim-user-store.js';
import { deps } from '../../api/deps.js';
import { localDomain } from '../../../shared/config/index.js';

interface Identity {
  email: string | undefined;
  nameId: NameId | undefined;
  ssoId: unknown;
}

/** What the externalId names: the IdP's NameID of the user, or (without an IdP) their address. */
function identityOf(s: Scim, input: Pick<ScimUserInput, 'externalId' | 'email'>): Identity {
  const { externalId } = input;
  const email = input.email ?? (isValidEmail(externalId) ? externalId : undefined);
  if (s.idp !== undefined) {
    const nameId = { value: externalId, format: isValidEmail(externalId) ? NAMEID_EMAIL : NAMEID_UNSPECIFIED };
    return { email, nameId, ssoId: samlSsoId(s.idp.issuer, nameId) };
  }
  if (email === undefined)
    throw scimErrors.badRequest(
      'invalidValue',
      'externalId must be a valid email address or (if there is a SAML IdP) a valid SAML NameID',
    );
  return { email, nameId: undefined, ssoId: { scim_external_id: externalId } };
}

const displayNameOf = (input: ScimUserInput, id: Identity) => input.displayName ?? id.email ?? input.externalId;

/** The live user holding the externalId in the team (its NameID through the IdP too), if any. */
async function holderOf(s: Scim, externalId: string, id: Identity): Promise<string | undefined> {
  const record = await scimUserStore.byExternalId(s.db, s.team, externalId);
  if (record !== undefined && (await teamUser(s, record.user)) !== undefined) return record.user;
  if (s.idp === undefined || id.nameId === undefined) return undefined;
  const bound = await samlStore.userOf(s.db, s.team, s.idp.issuer, nameIdKey(id.nameId));
  return bound !== undefined && (await teamUser(s, bound)) !== undefined ? bound : undefined;
}

/**
 * The team's user a SCIM client looks up by externalId: the one SCIM provisioned with it, or else
 * the team member holding that address (or, through the IdP, that NameID), whom SCIM then takes
 * over as wire's spar does (its record, SSO id and management), so that the client may manage them.
 */
export async function userByExternalId(s: Scim, externalId: string): Promise<UserRow | undefined> {
  const record = await scimUserStore.byExternalId(s.db, s.team, externalId);
  const id = identityOfLookup(s, externalId);
  if (record !== undefined) {
    const user = await teamUser(s, record.user);
    // Recorded, not taken over: the account's write failed after the record's (in the team's partition).
    return user === undefined || user.managedBy === 'scim' || id === undefined ? user : takeOver(s, user, id, []);
  }
  if (id === undefined) return undefined;
  const holder =
    id.email !== undefined
      ? (await userByEmail(s.c.env, id.email))?.id
      : s.idp !== undefined && id.nameId !== undefined
        ? await samlStore.userOf(s.db, s.team, s.idp.issuer, nameIdKey(id.nameId))
        : undefined;
  const user = holder === undefined ? undefined : await teamUser(s, holder);
  if (user === undefined || (await scimUserStore.byUser(s.db, s.team, user.id)) !== undefined) return user;
  const now = Date.now();
  return takeOver(s, user, id, [
    scimUserStore.insert(s.db, { user: user.id, team: s.team, externalId, createdAt: now, updatedAt: now }),
    ...(s.idp === undefined || id.nameId === undefined
      ? []
      : [samlStore.bind(s.db, s.team, s.idp.issuer, nameIdKey(id.nameId), user.id)]),
  ]);
}

/** SCIM manages the user from now on, known by its identity (and these records of it). */
function takeOver(s: Scim, user: UserRow, id: Identity, records: BatchStatement[]): Promise<UserRow> {
  return updateProvisionedUser(s.c.env, s.db, s.c.get('config'), user, { ssoId: id.ssoId, managedBy: 'scim' }, records);
}

/** The identity an externalId names, when it can name one (a lookup never fails on a bad one). */
function identityOfLookup(s: Scim, externalId: string): Identity | undefined {
  try {
    return identityOf(s, { externalId, email: undefined });
  } catch {
    return undefined;
  }
}

/** A record left by a user deleted elsewhere (a team admin removed them) makes way. */
async function clearStaleRecord(s: Scim, externalId: string): Promise<void> {
  const record = await scimUserStore.byExternalId(s.db, s.team, externalId);
  if (record !== undefined) await scimUserStore.delete(s.db, s.team, record.user).run();
}

/** The address SCIM gives: validated first when the team's validateSAMLemails is on, else set as it is (wire). */
async function validateEmail(s: Scim, user: UserRow, email: string | undefined): Promise<void> {
  const config = s.c.get('config');
  if (email === undefined) return;
  const validate = await featureEnabled(s.db, config, s.team, 'validateSAMLemails');
  await requestEmailChange(deps(s.c), user, email, true, validate);
}

export async function createScimUser(s: Scim, input: ScimUserInput): Promise<UserRow> {
  const id = identityOf(s, input);
  if ((await holderOf(s, input.externalId, id)) !== undefined) throw scimErrors.conflict('externalId is already taken');
  if ((await userByHandle(s.c.env, input.handle)) !== undefined) throw scimErrors.conflict('userName is already taken');
  await clearStaleRecord(s, input.externalId);
  const { c, db, team } = s;
  const config = c.get('config');
  const now = Date.now();
  const provisioned = {
    team,
    role: input.role ?? 'member',
    ssoId: id.ssoId,
    managedBy: 'scim' as const,
    handle: input.handle,
    richInfo: input.richInfo,
    records: (user: string) => [
      scimUserStore.insert(db, { user, team, externalId: input.externalId, createdAt: now, updatedAt: now }),
      ...(s.idp === undefined || id.nameId === undefined
        ? []
        : [samlStore.bind(db, team, s.idp.issuer, nameIdKey(id.nameId), user)]),
    ],
  };
  const name = displayNameOf(input, id);
  if (s.idp === undefined)
    return inviteProvisionedUser(c.env, db, config, { name, email: id.email!, locale: input.language, provisioned });
  let user = await createTeamAccount(c.env, config, {
    name,
    emailVerified: false,
    locale: input.language,
    provisioned,
  });
  if (!input.active) user = await updateProvisionedUser(c.env, db, config, user, { status: 'suspended' });
  // The account stands when its address cannot be validated (another account holds it).
  await validateEmail(s, user, id.email).catch(ignoreRefusal);
  return (await userById(db, { id: user.id, domain: localDomain(config) })) ?? user;
}

/**
 * A full replacement. Nothing changes (not even `lastModified`) when the resource would read the
 * same; otherwise managed fields, status, role, rich info and the externalId follow the input, and
 * a new email is validated (or, without validateSAMLemails, set).
 */
export async function replaceScimUser(s: Scim, user: UserRow, input: ScimUserInput): Promise<UserRow> {
  const { c, db, team } = s;
  const config = c.get('config');
  const id = identityOf(s, input);
  const holder = await holderOf(s, input.externalId, id);
  if (holder !== undefined && holder !== user.id)
    throw scimErrors.conflict('externalId already in use by another Wire user');
  const handleHolder = await userByHandle(c.env, input.handle);
  if (handleHolder !== undefined && handleHolder.id !== user.id)
    throw scimErrors.conflict('userName already in use by another wire user');

  const before = await viewOf(s, user);
  const status: 'active' | 'suspended' | undefined =
    user.status === 'active' || user.status === 'suspended' ? (input.active ? 'active' : 'suspended') : undefined;
  const changes = {
    name: displayNameOf(input, id),
    handle: input.handle,
    locale: input.language ?? defaultUserLocale(config),
    status,
    richInfo: input.richInfo,
  };
  const record = before.record ?? {
    user: user.id,
    team,
    externalId: input.externalId,
    createdAt: Date.now(),
    updatedAt: 0,
  };
  const after = {
    ...before,
    user: { ...user, ...changes, status: status ?? user.status, locale: changes.locale },
    record: { ...record, externalId: input.externalId },
    role: input.role ?? before.role,
  };
  const shown = (scimUserBody(before).emails as Array<{ value: string }> | undefined)?.[0]?.value;
  const emailChanges = id.email !== undefined && id.email !== shown;
  if (!emailChanges && JSON.stringify(scimUserBody(before)) === JSON.stringify(scimUserBody(after))) return user;

  const externalIdChanged = before.record?.externalId !== input.externalId;
  // Only an IdP's users have a NameID to move (an email user's old externalId need not parse now).
  const oldNameId =
    s.idp === undefined || before.record === undefined
      ? undefined
      : identityOf(s, { ...input, externalId: before.record.externalId }).nameId;
  const records = [
    before.record === undefined
      ? scimUserStore.insert(db, { ...record, updatedAt: Date.now() })
      : scimUserStore.update(db, team, user.id, { externalId: input.externalId, updatedAt: Date.now() }),
    ...(s.idp !== undefined && externalIdChanged && id.nameId !== undefined
      ? [
          ...(oldNameId === undefined ? [] : [samlStore.unbind(db, team, s.idp.issuer, nameIdKey(oldNameId))]),
          samlStore.bind(db, team, s.idp.issuer, nameIdKey(id.nameId), user.id),
        ]
      : []),
  ];
  const next = await updateProvisionedUser(
    c.env,
    db,
    config,
    user,
    { ...changes, ...(externalIdChanged ? { ssoId: id.ssoId } : {}) },
    records,
  );
  if (input.role !== undefined && input.role !== before.role)
    await changeMemberRole(c.env, db, config, { team, user: user.id, role: input.role });
  if (next.status === 'active' && emailChanges) {
    await validateEmail(s, next, id.email).catch(ignoreRefusal);
    return (await userById(db, { id: user.id, domain: localDomain(config) })) ?? next;
  }
  return next;
}

function ignoreRefusal(err: unknown): void {
  if (!(err instanceof ApiError)) throw err;
}

/** Deprovisioning deletes the account (as a team admin removing them would) and SCIM's records. */
export async function deleteScimUser(s: Scim, user: UserRow): Promise<void> {
  const { c, db, team } = s;
  const config = c.get('config');
  const { admins, told } = await memberLeaveAudience(db, config, team);
  const left = memberLeaveEffect({ team, user: user.id, told });
  await deleteAccount(c.env, db, config, user, undefined, admins, [left]);
  // After the account: records left by a failure here are stale, and stale records make way.
  await runBatch(db, [scimUserStore.delete(db, team, user.id), samlStore.unbindUser(db, team, user.id)]);
}
