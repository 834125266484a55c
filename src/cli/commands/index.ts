import type { Command } from 'commander';
import { registerRegulationCommands } from './regulations';
import { registerSearchCommands } from './search';
import { registerDeviceCommands } from './devices';
import { registerCollectionCommands } from './collections';
import { registerModelCommands } from './models';
import { registerLlmCommands } from './llm';
import { registerStructureCommands } from './structure';
import { registerEditionCommands } from './editions';

/**
 * Each engine's CLI commands live in their own module and register here.
 * They stay thin: parse flags, call runOperation with an API-table operation, format.
 */
export function registerCommandModules(program: Command): void {
  registerRegulationCommands(program);
  registerSearchCommands(program);
  registerDeviceCommands(program);
  registerCollectionCommands(program);
  registerModelCommands(program);
  registerLlmCommands(program);
  registerStructureCommands(program);
  registerEditionCommands(program);
}
