import type { Command } from 'commander';

export function registerCollectionCommands(_program: Command): void {}
