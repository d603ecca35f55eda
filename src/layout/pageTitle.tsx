/**
 * The page-name slot: `<PageTitle title="app.page.log" />` shows the name in the header and sets
 * the document title, prefixed with the product name (docs/screens.md).
 */
import { useEffect } from 'react';
import { Title, useTranslate } from 'react-admin';
import { PRODUCT_NAME } from '../../shared/constants';

export const documentTitle = (pageName?: string) => (pageName ? `${PRODUCT_NAME} | ${pageName}` : PRODUCT_NAME);

export function useDocumentTitle(pageName?: string) {
  useEffect(() => {
    document.title = documentTitle(pageName);
  }, [pageName]);
}

export function PageTitle({ title }: { title: string }) {
  const translate = useTranslate();
  const text = translate(title, { _: title });
  useDocumentTitle(text);
  return <Title title={text} preferenceKey={false} />;
}
