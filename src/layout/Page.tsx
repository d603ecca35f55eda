/**
 * A signed-in custom screen, built as react-admin's own custom pages are (a component on a
 * <CustomRoutes> route that renders <Title> and its content): the screen's name in the header and
 * the document title, its row of controls, then its content. Every custom screen inside the layout
 * is a Page; the screens before sign-in are a PublicCard (docs/architecture.md, "How the browser app is layered").
 */
import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import { PageTitle } from './pageTitle';
import { PageToolbar } from './PageToolbar';

export interface PageProps {
  /** Translation key (or text) of the screen's name. */
  title: string;
  /** The controls at the top (back, heading, search, buttons), in a PageToolbar. */
  toolbar?: ReactNode;
  /** For screens of forms or cards that read best narrower than the window. */
  maxWidth?: number;
  children: ReactNode;
}

export function Page({ title, toolbar, maxWidth, children }: PageProps) {
  return (
    <Box sx={{ pb: 2, maxWidth }}>
      <PageTitle title={title} />
      {toolbar ? <PageToolbar>{toolbar}</PageToolbar> : null}
      {children}
    </Box>
  );
}
