/**
 * Rule templates (/templates): an agency's rule written once, followed by folders that override
 * what they need (shared/templates.ts). Read by whoever reads rules; created and edited by those
 * who edit rules in every folder that follows it (the server says who, per template).
 */
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'templates',
  endpoint: { path: 'templates/' },
  list: lazy(() => import('./TemplateList')),
  create: lazy(() => import('./TemplateCreate')),
  edit: lazy(() => import('./TemplateEdit')),
  icon: LibraryBooks,
  i18n,
  access: { list: 'read_rules', edit: 'read_rules', create: 'create_update_rules' },
  menu: { order: 15 },
  recordRepresentation: 'name',
});
