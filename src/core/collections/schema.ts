import type { Migration } from '../store/migrations';

/** Tables owned by the collections engine. Append new versions; never edit a released one. */
export const collectionsMigrations: Migration[] = [];
