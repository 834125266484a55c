/** API operations of the llm engine (see src/core/api/table.ts). */
export const llmOperations = {};
