import type { TemplateSet } from './types.js';

const actions: Record<string, string> = {
  login: 'log in',
  create_scim_token: 'create a SCIM token',
  delete_team: 'delete your team',
};

export const en: TemplateSet = (m) => {
  switch (m.kind) {
    case 'activation':
      return {
        subject: 'Your verification code',
        lines: [
          `Hello${m.name ? ` ${m.name}` : ''},`,
          `Your verification code is ${m.code}.`,
          'It verifies this email address for your account.',
        ],
      };
    case 'password-reset':
      return {
        subject: 'Password reset',
        lines: [`Your password reset code is ${m.code}.`, 'If you did not ask for it, ignore this mail.'],
      };
    case 'verification':
      return {
        subject: 'Your verification code',
        lines: [`Use the code ${m.code} to ${actions[m.action] ?? m.action}.`, 'It is valid for a few minutes.'],
      };
    case 'deletion':
      return {
        subject: 'Delete your account',
        lines: [
          `Hello ${m.name},`,
          `To delete your account, confirm with key ${m.key} and code ${m.code}.`,
          'If you did not ask for it, change your password.',
        ],
      };
    case 'team-invitation':
      return {
        subject: `You have been invited to join ${m.team}`,
        lines: [`${m.inviter} invited you to join the team ${m.team}.`, `Accept the invitation here: ${m.url}`],
      };
    case 'provider-activation':
      return {
        subject: 'Activate your provider account',
        lines: [`Hello ${m.name},`, `To activate this address, use key ${m.key} and code ${m.code}.`],
      };
    case 'provider-password-reset':
      return {
        subject: 'Reset your provider password',
        lines: [`To choose a new password, use key ${m.key} and code ${m.code}.`],
      };
  }
};
