import { type Config, localDomain } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { type BatchStatement, database, runBatch } from '../../db/client.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AssetRef, RichField, TeamRole } from '../../../shared/db/schema.js';
import { richInfoStore } from '../rich-info/rich-info-store.js';
import { accountSelfConversation, addTeamMember, createTeam } from '../../galley/face.js';
import type { InvitationRow } from '../invitations/invitation-store.js';
import { joinStatements } from '../invitations/join-team.js';
import type { UserRow } from '../users/user-json.js';
import { emailKeyOf, userStore } from '../users/user-store.js';
import { placeNotifications } from '../../events/publish.js';
import { slotOf, uuidInSlot } from '../../../shared/db/partitions.js';
import { renaming } from '../users/user-names.js';

export interface AccountInput {
  name: string;
  email?: string | undefined;
  /** Whether the email is verified (claimed now) or waits for activation. */
  emailVerified: boolean;
  passwordHash?: string | undefined;
  locale?: string | undefined;
  accentId?: number | undefined;
  assets?: AssetRef[] | undefined;
  supportedProtocols?: Array<'proteus' | 'mls'> | undefined;
  /** Seconds until an identity-less user expires (defaults to the session cookie lifetime). */
  expiresIn?: number | undefined;
  newTeam?: { name: string; icon: string; iconKey?: string | undefined } | undefined;
  /** The invitation the user registers with: they join its team, and it is used up. */
  invitation?: InvitationRow | undefined;
  /** An account of a team's identity provider (SSO, SCIM): it joins the team with the role. */
  provisioned?:
    | {
        team: string;
        role: TeamRole;
        ssoId: unknown;
        managedBy: 'wire' | 'scim';
        handle?: string | undefined;
        /** A SCIM user without an IdP waits for their invitation to be accepted. */
        pendingInvitation?: boolean | undefined;
        richInfo?: RichField[] | undefined;
        /** The provider's own records of the new user, written in the same batch. */
        records?: (user: string) => readonly unknown[];
      }
    | undefined;
}

/** Default locale of new profiles: `setDefaultUserLocale`, else `setDefaultTemplateLocale`. */
export function defaultUserLocale(config: Config): string {
  const o = config.brig.optSettings;
  return o.setDefaultUserLocale ?? o.setDefaultTemplateLocale;
}

/** How an account's statements are written: in one batch, with whatever else the caller's change holds. */
export type AccountWrite = (row: UserRow, change: Change) => Promise<void>;

/**
 * Writes a new user (and the team it creates, with the user as owner) in one batch: all or
 * nothing (`write` makes the batch; by default, of these statements alone). A verified email is
 * claimed here; losing that race is 409 `key-exists`.
 */
export async function createAccount(
  env: Env,
  config: Config,
  input: AccountInput,
  write: AccountWrite = (_, change) => commitChange(env, config, change),
): Promise<UserRow> {
  const db = database(env.DB);
  const now = Date.now();
  const p = input.provisioned;
  // A team and the accounts made for it share a slot, so a partition holds a team with its members.
  const joining = input.invitation?.team ?? p?.team;
  const id = joining === undefined ? crypto.randomUUID() : uuidInSlot(slotOf(joining));
  const ephemeral = input.email === undefined && p === undefined;
  const teamId = input.newTeam === undefined ? (joining ?? null) : uuidInSlot(slotOf(id));
  const row: UserRow = {
    id,
    name: input.name,
    textStatus: null,
    accentId: input.accentId ?? 0,
    assets: input.assets ?? [],
    locale: input.locale ?? defaultUserLocale(config),
    status: ephemeral ? 'ephemeral' : p?.pendingInvitation ? 'pending-invitation' : 'active',
    activated: (input.email !== undefined && input.emailVerified) || (p !== undefined && !p.pendingInvitation),
    email: input.emailVerified ? (input.email ?? null) : null,
    emailKey: input.emailVerified && input.email !== undefined ? emailKeyOf(input.email) : null,
    emailUnvalidated: input.emailVerified ? null : (input.email ?? null),
    handle: p?.handle ?? null,
    password: input.passwordHash ?? null,
    team: teamId,
    managedBy: p?.managedBy ?? 'wire',
    supportedProtocols: input.supportedProtocols ?? ['proteus'],
    userType: 'regular',
    ssoId: p?.ssoId ?? null,
    expiresAt: ephemeral ? now + (input.expiresIn ?? config.brig.zauth.sessionTokenTimeout) * 1000 : null,
    searchable: true,
    conferenceCalling: config.brig.optSettings.setFeatureFlags?.conferenceCalling?.defaultForNew?.status ?? null,
    serviceProvider: null,
    serviceId: null,
    createdAt: now,
  };
  const domain = localDomain(config);
  // The user's notification shard is placed first, in partition 0, which counts the shards' seats
  // for the whole directory: a placement whose account never comes holds a seat, nothing else.
  await runBatch(db, placeNotifications(db, id));
  const statements: BatchStatement[] = [userStore.insert(db, row)];
  if (input.newTeam !== undefined && teamId !== null)
    statements.push(...createTeam(db, { id: teamId, ...input.newTeam, creator: id }));
  if (input.invitation !== undefined) statements.push(...joinStatements(db, id, input.invitation));
  if (p !== undefined)
    statements.push(
      addTeamMember(db, { team: p.team, user: id, role: p.role, invitedBy: null }),
      ...(p.richInfo === undefined || p.richInfo.length === 0 ? [] : [richInfoStore.setStatement(db, id, p.richInfo)]),
      ...(p.records?.(id) ?? []),
    );
  try {
    // wire's brig has galley make the self conversation with the account, so clients find it from the start.
    await renaming(env, id, undefined, row, () =>
      write(row, joinChanges({ statements, effects: [] }, accountSelfConversation({ id, domain }))),
    );
  } catch (err) {
    if (isUniqueViolation(err, 'users.email_key')) throw new ApiError(brigErrors.keyExists);
    if (isUniqueViolation(err, 'users.handle')) throw new ApiError(brigErrors.handleExists);
    throw err;
  }
  return row;
}
