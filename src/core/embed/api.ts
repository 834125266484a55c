/** API operations for embedding models (list, import, status). */
export const modelOperations = {};
