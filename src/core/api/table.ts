import type { z } from 'zod';
import { registerOperations } from '../common/operation';
import { appOperations } from '../app/api';
import { regulationOperations } from '../regulations/api';
import { structureOperations } from '../regulations/structure-api';
import { searchOperations } from '../regulations/search-api';
import { deviceOperations } from '../devices/api';
import { collectionOperations } from '../collections/api';
import { llmOperations } from '../llm/api';
import { modelOperations } from '../embed/api';

/**
 * The one API table. Every operation the product offers is declared in its engine's
 * api.ts and registered here (a duplicate name fails at start-up); adapters (IPC, HTTP, CLI, MCP)
 * only ever go through it. Nothing below this folder imports it (checked by .dependency-cruiser.cjs).
 */
export const apiTable = registerOperations(
  appOperations,
  modelOperations,
  regulationOperations,
  structureOperations,
  searchOperations,
  deviceOperations,
  collectionOperations,
  llmOperations,
);

export type ApiTable = typeof apiTable;
export type ApiName = keyof ApiTable & string;
export type ApiInput<N extends ApiName> = z.input<ApiTable[N]['input']>;
export type ApiOutput<N extends ApiName> = z.output<ApiTable[N]['output']>;

export function isApiName(name: string): name is ApiName {
  return Object.hasOwn(apiTable, name);
}

export const apiNames: ApiName[] = Object.keys(apiTable).filter(isApiName);
