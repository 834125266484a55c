import type { Migration } from '../store/migrations';

/** Tables owned by the regulations engine. Append new versions; never edit a released one. */
export const regulationsMigrations: Migration[] = [];
