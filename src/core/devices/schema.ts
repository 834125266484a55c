import type { Migration } from '../store/migrations';

/** Tables owned by the devices engine. Append new versions; never edit a released one. */
export const devicesMigrations: Migration[] = [];
