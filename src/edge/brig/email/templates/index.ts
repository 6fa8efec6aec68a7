import { de } from './de.js';
import { en } from './en.js';
import type { MailKind, RenderedMail, TemplateSet } from './types.js';

const byLanguage: Record<string, TemplateSet> = { en, de };

function templatesFor(locale: string): TemplateSet | undefined {
  const lower = locale.toLowerCase();
  return byLanguage[lower] ?? byLanguage[lower.split('-')[0]!];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface LocaleSettings {
  /** setDefaultTemplateLocale */
  templateLocale: string;
  /** setDefaultUserLocale */
  userLocale?: string | undefined;
}

/**
 * Renders a mail in the recipient's locale: the profile's locale, else `setDefaultUserLocale`,
 * else `setDefaultTemplateLocale`; a locale without templates falls back to the template locale.
 */
export function renderMail(mail: MailKind, locale: string | undefined, settings: LocaleSettings): RenderedMail {
  const wanted = locale ?? settings.userLocale ?? settings.templateLocale;
  const set = templatesFor(wanted) ?? templatesFor(settings.templateLocale) ?? en;
  const { subject, lines } = mail.kind === 'audit' ? mail : set(mail);
  return {
    subject,
    text: `${lines.join('\n')}\n`,
    html: `<!doctype html><html><body>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`,
  };
}

export type { MailKind, RenderedMail } from './types.js';
