import type { Migration } from '../store/migrations';

/** Tables owned by the search engine. Append new versions; never edit a released one. */
export const searchMigrations: Migration[] = [];
