import type { Db } from '../store/db';

/**
 * Hooks the regulation importer calls inside its import transaction, so a regulation and
 * its search index always change together (implemented by the search engine).
 */
export function indexRegulation(_db: Db, _regId: string): void {}

export function removeRegulationIndex(_db: Db, _regId: string): void {}

/**
 * Called after the import transaction commits: embeds the regulation's units when a model is
 * installed (async, off the main thread). Without a model it does nothing; search stays lexical.
 */
export async function indexRegulationVectors(
  _ctx: import('../context').AppContext,
  _regId: string,
  _progress?: import('../api/operation').ProgressSink,
): Promise<void> {}
