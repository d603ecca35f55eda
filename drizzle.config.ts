import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // A resource's definition file (shared/resources/) holds its own table.
  schema: ['./server/db/schema/index.ts', './shared/resources/*.ts'],
  out: './server/db/migrations',
});
