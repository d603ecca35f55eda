/**
 * Every route module of the API, mounted under /api. A new feature adds its routes file here;
 * a resource defined in one file needs nothing here (resources/routes.ts serves them all).
 */
import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/routes';
import auditRoutes from './audit/routes';
import rulesRoutes from './rules/routes';
import peopleRoutes from './people/routes';
import campaignRoutes from './campaigns/routes';
import activityRoutes from './activity/routes';
import requestedRunRoutes from './run/routes';
import ruleRunRoutes from './activity/runRoutes';
import historyRoutes from './history/routes';
import backtestRoutes from './backtest/routes';
import impactRoutes from './impact/routes';
import resourceRoutes from './resources/routes';
import judgingRoutes from './rules/judgingRoutes';
import platformHealthRoutes from './health/routes';
import crmRoutes from './outcomes/crmRoutes';
import folderOutcomeRoutes from './outcomes/folderRoutes';
import metaWebhookRoutes from './push/routes';
import connectionRoutes from './connections/routes';
import approvalRoutes from './approvals/routes';
import adRoutes from './ads/routes';
import overviewRoutes from './overview/routes';
import templateRoutes from './templates/routes';
import alertRoutes from './alerts/routes';
import { changingNothingKept } from './http/keptUntilChanged';

/** Areas whose writes never touch users, groups, memberships or sessions (so the signed-in users stay kept). */
const areasLeavingPeople: FastifyPluginAsync[] = [
  rulesRoutes,
  auditRoutes,
  campaignRoutes,
  activityRoutes,
  requestedRunRoutes,
  ruleRunRoutes,
  historyRoutes,
  backtestRoutes,
  impactRoutes,
  // Every resource defined in one file (shared/resources/).
  resourceRoutes,
  judgingRoutes,
  platformHealthRoutes,
  crmRoutes,
  folderOutcomeRoutes,
  metaWebhookRoutes,
  connectionRoutes,
  approvalRoutes,
  adRoutes,
  overviewRoutes,
  templateRoutes,
  alertRoutes,
];

export const apiRoutes: FastifyPluginAsync[] = [
  authRoutes,
  peopleRoutes,
  ...areasLeavingPeople.map(changingNothingKept),
];
