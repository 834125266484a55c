import type { z } from 'zod';
import { appOperations } from '../app/api';
import { regulationOperations } from '../regulations/api';
import { searchOperations } from '../regulations/search-api';
import { deviceOperations } from '../devices/api';
import { collectionOperations } from '../collections/api';
import { llmOperations } from '../llm/api';
import { modelOperations } from '../embed/api';

/**
 * The one API table. Every operation the product offers is declared in its engine's
 * api.ts and listed here; adapters (IPC, HTTP, CLI, MCP) only ever go through it.
 */
export const apiTable = {
  ...appOperations,
  ...modelOperations,
  ...regulationOperations,
  ...searchOperations,
  ...deviceOperations,
  ...collectionOperations,
  ...llmOperations,
};

export type ApiTable = typeof apiTable;
export type ApiName = keyof ApiTable & string;
export type ApiInput<N extends ApiName> = z.input<ApiTable[N]['input']>;
export type ApiOutput<N extends ApiName> = z.output<ApiTable[N]['output']>;

export const apiNames = Object.keys(apiTable) as ApiName[];
