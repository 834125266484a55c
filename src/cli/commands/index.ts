import type { Command } from 'commander';

/**
 * Each engine's CLI commands live in their own module and register here.
 * They stay thin: parse flags, call runOperation with an API-table operation, format.
 */
export function registerCommandModules(_program: Command): void {}
