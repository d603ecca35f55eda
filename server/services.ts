/**
 * Services the routes use beyond the database and tokens. Each feature adds its own field;
 * tests pass their own instances to buildApp.
 */
export interface AppServices {
  [name: string]: unknown;
}
