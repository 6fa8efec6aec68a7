// Team roles and what each may do, as wire-api defines them: brig and galley both ask.
import type { TeamRole } from '../../shared/db/schema.js';

/** wire-server's team permission bits. */
const Perm = {
  CreateConversation: 0x1,
  DeleteConversation: 0x2,
  AddTeamMember: 0x4,
  RemoveTeamMember: 0x8,
  AddRemoveConvMember: 0x10,
  ModifyConvName: 0x20,
  GetBilling: 0x40,
  SetBilling: 0x80,
  SetTeamData: 0x100,
  GetMemberPermissions: 0x200,
  GetTeamConversations: 0x400,
  DeleteTeam: 0x800,
  SetMemberPermissions: 0x1000,
} as const;
export type PermName = keyof typeof Perm;

/** A role is all the API knows: `self` = `copy` = one of four values. */
const ROLE_BITS: Record<TeamRole, number> = { owner: 8191, admin: 5951, member: 1587, partner: 1025 };

export const permissionsOf = (role: TeamRole) => ({ self: ROLE_BITS[role], copy: ROLE_BITS[role] });

export function roleOfBits(self: number, copy: number): TeamRole | undefined {
  if (self !== copy) return undefined;
  return (Object.keys(ROLE_BITS) as TeamRole[]).find((r) => ROLE_BITS[r] === self);
}

export const hasPerm = (role: TeamRole, p: PermName) => (ROLE_BITS[role] & Perm[p]) !== 0;

/** Whether a role may hand out another: only permissions it holds itself. */
export const canGrant = (granter: TeamRole, role: TeamRole) => (ROLE_BITS[role] & ~ROLE_BITS[granter]) === 0;

/** wire-server's hidden permissions: not among the bits, held by role. */
const HIDDEN_PERMS = {
  /** Change other members' profiles (their email): owners and admins. */
  ChangeTeamMemberProfiles: ['owner', 'admin'],
  /** See teammates' emails under `visible_if_on_same_team`: everyone but external partners. */
  ViewSameTeamEmails: ['owner', 'admin', 'member'],
  /** Search users (`/search/contacts`): everyone but external partners. */
  SearchContacts: ['owner', 'admin', 'member'],
  /** Act as an admin of the team's channels: owners and admins. */
  ManageChannels: ['owner', 'admin'],
  /** See, register, change and remove the team's SAML identity providers: owners and admins. */
  CreateUpdateDeleteIdp: ['owner', 'admin'],
  /** Create, list and remove the team's SCIM tokens: owners and admins. */
  CreateReadDeleteScimToken: ['owner', 'admin'],
  /** Register and remove the team's legal hold service: owners and admins. */
  ChangeLegalHoldTeamSettings: ['owner', 'admin'],
  /** Put members under legal hold and take them out of it: owners and admins. */
  ChangeLegalHoldUserSettings: ['owner', 'admin'],
} as const satisfies Record<string, readonly TeamRole[]>;
export type HiddenPermName = keyof typeof HIDDEN_PERMS;

export const hasHiddenPerm = (role: TeamRole, p: HiddenPermName) =>
  (HIDDEN_PERMS[p] as readonly TeamRole[]).includes(role);
