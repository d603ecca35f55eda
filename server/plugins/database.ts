/** The configuration and the database, decorated onto the app: `app.config`, `app.dbh`, `app.db`, `app.writeDb`. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Database, DbHandle } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    dbh: DbHandle;
    db: Database;
    /** Where the people's changes run: their own lane on PostgreSQL (DbHandle.writes), else `db`. */
    writeDb: Database;
  }
}

export default fp(
  async (app: FastifyInstance, { config, dbh }: { config: Config; dbh: DbHandle }) => {
    app.decorate('config', config);
    app.decorate('dbh', dbh);
    app.decorate('db', dbh.db);
    app.decorate('writeDb', dbh.writes ?? dbh.db);
  },
  { name: 'database' },
);
