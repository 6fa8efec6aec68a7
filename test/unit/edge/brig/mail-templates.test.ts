import { describe, expect, it } from 'vitest';
import { renderMail } from '../../../../src/edge/brig/email/templates/index.js';

const code = { kind: 'activation', code: '123456' } as const;

describe('mail templates by locale', () => {
  it("uses the profile's locale, its language for a regional variant", () => {
    expect(renderMail(code, 'de', { templateLocale: 'en' }).subject).toBe('Dein Bestätigungscode');
    expect(renderMail(code, 'de-CH', { templateLocale: 'en' }).subject).toBe('Dein Bestätigungscode');
  });

  it('falls back to setDefaultTemplateLocale when the locale has no templates', () => {
    expect(renderMail(code, 'fr', { templateLocale: 'en' }).subject).toBe('Your verification code');
    expect(renderMail(code, 'fr', { templateLocale: 'de' }).subject).toBe('Dein Bestätigungscode');
  });

  it('uses setDefaultUserLocale when the recipient has no locale, else the template locale', () => {
    expect(renderMail(code, undefined, { templateLocale: 'en', userLocale: 'de' }).subject).toBe(
      'Dein Bestätigungscode',
    );
    expect(renderMail(code, undefined, { templateLocale: 'de' }).subject).toBe('Dein Bestätigungscode');
    expect(renderMail(code, undefined, { templateLocale: 'en' }).subject).toBe('Your verification code');
  });

  it('renders text and escaped HTML with the values', () => {
    const m = renderMail({ kind: 'activation', name: '<Eve>', code: '654321' }, 'en', { templateLocale: 'en' });
    expect(m.text).toContain('654321');
    expect(m.html).toContain('&lt;Eve&gt;');
    expect(m.html).not.toContain('<Eve>');
  });
});
