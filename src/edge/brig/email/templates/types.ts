/** The mails brig sends to users, in their language, each with the values its template needs. */
type LocalizedMail =
  | { kind: 'activation'; name?: string | undefined; code: string }
  | { kind: 'password-reset'; code: string }
  | { kind: 'verification'; action: string; code: string }
  | { kind: 'deletion'; name: string; key: string; code: string }
  | { kind: 'team-invitation'; inviter: string; team: string; url: string }
  | { kind: 'provider-activation'; name: string; key: string; code: string }
  | { kind: 'provider-password-reset'; key: string; code: string };

/** Every mail brig sends: the localized ones, and the operators' audit mails (plain text as given). */
export type MailKind = LocalizedMail | { kind: 'audit'; subject: string; lines: string[] };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One locale's templates. */
export type TemplateSet = (mail: LocalizedMail) => { subject: string; lines: string[] };
