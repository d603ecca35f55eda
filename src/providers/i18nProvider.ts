/**
 * ra-i18n-polyglot over the English messages; the only locale for now. Notifications and server
 * messages are plain English, not message keys: `allowMissing` shows them as they are, without
 * polyglot's "Missing translation" console warning for each.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';

/** App.tsx gives it the app's messages: src/i18n/en.ts with each resource's own labels. */
export const createI18nProvider = (messages: Record<string, unknown>) =>
  polyglotI18nProvider(() => messages as unknown as TranslationMessages, 'en', [{ locale: 'en', name: 'English' }], {
    allowMissing: true,
  });
