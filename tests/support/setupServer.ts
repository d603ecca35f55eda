/**
 * Setup of every server test file. Where a worker's files share its modules (the quick tier:
 * vitest.config.ts), the product's counters, kept in prom-client's one registry per process, start
 * each file at zero as in a process of its own.
 */
import { register } from 'prom-client';
import { beforeAll } from 'vitest';

beforeAll(() => register.resetMetrics());
