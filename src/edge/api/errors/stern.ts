import { defineErrors } from './api-error.js';

/** The back office's own refusals (wire's stern), beside the components' it passes on. */
export const sternErrors = defineErrors({
  noUserWithEmail: { status: 404, label: 'not-found', message: 'No user with that email' },
  emailMismatch: { status: 400, label: 'match-error', message: 'email and uid do not belong to the same user' },
  noUser: { status: 404, label: 'no-user', message: 'No such user with that email' },
  noBindingTeam: { status: 404, label: 'no-binding-team', message: 'No binding team found for user' },
  bindingTeamMismatch: { status: 404, label: 'binding-team-mismatch', message: 'Binding team mismatch' },
  wrongMemberCount: {
    status: 403,
    label: 'wrong-member-count',
    message: 'Only teams with 1 user can be deleted',
  },
  forceOrEmail: { status: 400, label: 'bad-request', message: 'Must specify either email or force=true' },
});
