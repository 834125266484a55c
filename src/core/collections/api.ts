/** API operations of the collections engine (see src/core/api/table.ts). */
export const collectionOperations = {};
