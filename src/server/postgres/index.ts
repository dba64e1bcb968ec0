/**
 * `pay-checkout/server/postgres`: the claim store in PostgreSQL. Its own subpath, so a server without it never makes
 * its bundler resolve `pg`, an optional peer dependency.
 */
export { createPostgresStore } from './store.js';
export type { PgClientLike, PgPoolLike, PostgresDurability, PostgresStore, PostgresStoreOptions } from './store.js';
