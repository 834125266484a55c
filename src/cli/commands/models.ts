import type { Command } from 'commander';

export function registerModelCommands(_program: Command): void {}
