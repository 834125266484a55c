import type { Command } from 'commander';

export function registerLlmCommands(_program: Command): void {}
