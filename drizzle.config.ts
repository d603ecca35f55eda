import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // A resource's definition file (src/domain/resources/) holds its own table.
  schema: ['./server/db/schema/index.ts', './src/domain/resources/*.ts'],
  out: './server/db/migrations',
});
