import type { Migration } from './store/migrations';
import { coreMigrations } from './store/core-schema';
import { regulationsMigrations, regulationsTextMigrations } from './regulations/schema';
import { searchMigrations } from './search/schema';
import { devicesMigrations } from './devices/schema';
import { collectionsMigrations } from './collections/schema';
import { editionsMigrations } from './editions/schema';

/** Every engine's migrations, in dependency order (search indexes regulation units). */
export const allMigrations: Migration[] = [
  ...coreMigrations,
  ...regulationsMigrations,
  ...searchMigrations,
  ...regulationsTextMigrations,
  ...devicesMigrations,
  ...collectionsMigrations,
  ...editionsMigrations,
];
