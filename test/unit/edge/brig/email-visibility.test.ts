import { describe, expect, it } from 'vitest';
import { emailVisibleTo, type Viewer } from '../../../../src/edge/brig/users/email-visibility.js';

const t = 'team-1';
const as = (role: Viewer['role'], team = t): Viewer => ({ team, role });
const inTeam = { team: t };
const personal = { team: null };

describe('email visibility in profiles', () => {
  it('visible_if_on_team: every viewer sees the emails of team users, nobody those of personal users', () => {
    for (const viewer of [undefined, as('partner'), as('owner', 'team-2')]) {
      expect(emailVisibleTo('visible_if_on_team', viewer, inTeam)).toBe(true);
      expect(emailVisibleTo('visible_if_on_team', viewer, personal)).toBe(false);
    }
  });

  it('visible_if_on_same_team: the team’s members, admins and owners, not its partners nor outsiders', () => {
    for (const role of ['owner', 'admin', 'member'] as const)
      expect(emailVisibleTo('visible_if_on_same_team', as(role), inTeam)).toBe(true);
    expect(emailVisibleTo('visible_if_on_same_team', as('partner'), inTeam)).toBe(false);
    expect(emailVisibleTo('visible_if_on_same_team', as('owner', 'team-2'), inTeam)).toBe(false);
    expect(emailVisibleTo('visible_if_on_same_team', undefined, inTeam)).toBe(false);
    expect(emailVisibleTo('visible_if_on_same_team', as('owner'), personal)).toBe(false);
  });

  it('visible_to_self: only the team’s owners and admins', () => {
    expect(emailVisibleTo('visible_to_self', as('owner'), inTeam)).toBe(true);
    expect(emailVisibleTo('visible_to_self', as('admin'), inTeam)).toBe(true);
    expect(emailVisibleTo('visible_to_self', as('member'), inTeam)).toBe(false);
    expect(emailVisibleTo('visible_to_self', as('partner'), inTeam)).toBe(false);
    expect(emailVisibleTo('visible_to_self', as('admin', 'team-2'), inTeam)).toBe(false);
    expect(emailVisibleTo('visible_to_self', undefined, personal)).toBe(false);
  });
});
