/** The mails brig sends, each with the values its template needs. */
export type MailKind =
  | { kind: 'activation'; name?: string | undefined; code: string }
  | { kind: 'password-reset'; code: string }
  | { kind: 'verification'; action: string; code: string }
  | { kind: 'deletion'; name: string; key: string; code: string }
  | { kind: 'team-invitation'; inviter: string; team: string; url: string };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One locale's templates. */
export type TemplateSet = (mail: MailKind) => { subject: string; lines: string[] };
