import type { Command } from 'commander';

export function registerSearchCommands(_program: Command): void {}
