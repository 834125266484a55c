/** API operations of the search engine (see src/core/api/table.ts). */
export const searchOperations = {};
