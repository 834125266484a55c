import type { Command } from 'commander';

export function registerRegulationCommands(_program: Command): void {}
