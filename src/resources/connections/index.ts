/**
 * Meta connections (/meta_connections): the businesses' system-user tokens the product works with,
 * each reaching some ad accounts. Seen by whoever sees the ad accounts (CONNECTION_READERS); added
 * and removed by admins only (mayChangeConnections), which the server enforces too.
 */
import Hub from '@mui/icons-material/Hub';
import { lazy } from 'react';
import { CONNECTION_READERS } from '../../../shared/metaConnections';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'meta_connections',
  // The POST answers the whole connection: the token sent is not kept beside it in the app's cache.
  endpoint: { path: 'meta_connections/', create: { path: 'meta_connections/', answerOnly: true } },
  list: lazy(() => import('./ConnectionList')),
  create: lazy(() => import('./ConnectionCreate')),
  show: lazy(() => import('./ConnectionShow')),
  icon: Hub,
  i18n,
  access: { list: CONNECTION_READERS, show: CONNECTION_READERS },
  menu: { order: 45 },
  recordRepresentation: 'name',
});
