import { useTranslate } from 'react-admin';

/** The filter panel's texts, by their key under campaigns.filters. */
export function useFilterLabel() {
  const translate = useTranslate();
  return (key: string) => translate(`campaigns.filters.${key}`);
}
