/**
 * Every route module of the API, mounted under /api. A new feature adds its routes file here.
 */
import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/routes';

export const apiRoutes: FastifyPluginAsync[] = [authRoutes];
