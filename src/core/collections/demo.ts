import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { getSetting, setSetting } from '../store/db';
import { importCollection } from './import';
import { embedCollectionVectors } from './vectors';

/**
 * Demo collections shipped in resources/ (resources/collections/demo.json): seeded once per data dir on the
 * app's first start, like the demo regulations; each offers questions to try, one of them about something
 * the collection does not hold.
 */
export interface DemoCollection {
  name: string;
  folder: string;
  questions: string[];
}

const SEEDED_KEY = 'collections.demo_seeded';

export function demoCollections(ctx: AppContext): DemoCollection[] {
  try {
    const file = path.join(ctx.resourcesDir, 'collections', 'demo.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { collections: DemoCollection[] }).collections;
  } catch {
    return [];
  }
}

/** Imports the demo collections once; a user who deletes one does not see it come back. */
export async function seedDemoCollections(ctx: AppContext): Promise<string[]> {
  if (getSetting<boolean>(ctx.db, SEEDED_KEY)) return [];
  const seeded: string[] = [];
  for (const demo of demoCollections(ctx)) {
    const folder = path.join(ctx.resourcesDir, demo.folder);
    if (!fs.existsSync(folder)) continue;
    const result = importCollection(ctx, { folder, name: demo.name });
    await embedCollectionVectors(ctx, result.collection);
    seeded.push(demo.name);
  }
  if (seeded.length) setSetting(ctx.db, SEEDED_KEY, true);
  return seeded;
}
