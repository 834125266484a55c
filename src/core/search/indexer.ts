import type { Db } from '../store/db';

/**
 * Hooks the regulation importer calls inside its import transaction, so a regulation and
 * its search index always change together (implemented by the search engine).
 */
export function indexRegulation(_db: Db, _regId: string): void {}

export function removeRegulationIndex(_db: Db, _regId: string): void {}
