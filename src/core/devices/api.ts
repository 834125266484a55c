/** API operations of the devices engine (see src/core/api/table.ts). */
export const deviceOperations = {};
