/** API operations of the regulations engine (see src/core/api/table.ts). */
export const regulationOperations = {};
