import type { TemplateSet } from './types.js';

const actions: Record<string, string> = {
  login: 'dich anzumelden',
  create_scim_token: 'ein SCIM-Token zu erstellen',
  delete_team: 'dein Team zu löschen',
};

export const de: TemplateSet = (m) => {
  switch (m.kind) {
    case 'activation':
      return {
        subject: 'Dein Bestätigungscode',
        lines: [
          `Hallo${m.name ? ` ${m.name}` : ''},`,
          `dein Bestätigungscode lautet ${m.code}.`,
          'Er bestätigt diese E-Mail-Adresse für dein Konto.',
        ],
      };
    case 'password-reset':
      return {
        subject: 'Passwort zurücksetzen',
        lines: [
          `Dein Code zum Zurücksetzen des Passworts lautet ${m.code}.`,
          'Falls du ihn nicht angefordert hast, ignoriere diese E-Mail.',
        ],
      };
    case 'verification':
      return {
        subject: 'Dein Bestätigungscode',
        lines: [
          `Verwende den Code ${m.code}, um ${actions[m.action] ?? m.action}.`,
          'Er ist einige Minuten lang gültig.',
        ],
      };
    case 'deletion':
      return {
        subject: 'Konto löschen',
        lines: [
          `Hallo ${m.name},`,
          `bestätige das Löschen deines Kontos mit Schlüssel ${m.key} und Code ${m.code}.`,
          'Falls du es nicht angefordert hast, ändere dein Passwort.',
        ],
      };
    case 'team-invitation':
      return {
        subject: `Einladung in das Team ${m.team}`,
        lines: [`${m.inviter} hat dich in das Team ${m.team} eingeladen.`, `Nimm die Einladung hier an: ${m.url}`],
      };
    case 'provider-activation':
      return {
        subject: 'Aktiviere dein Anbieterkonto',
        lines: [`Hallo ${m.name},`, `Aktiviere diese Adresse mit dem Schlüssel ${m.key} und dem Code ${m.code}.`],
      };
    case 'provider-password-reset':
      return {
        subject: 'Setze dein Anbieterpasswort zurück',
        lines: [`Wähle ein neues Passwort mit dem Schlüssel ${m.key} und dem Code ${m.code}.`],
      };
  }
};
