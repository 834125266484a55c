import type { Command } from 'commander';

export function registerDeviceCommands(_program: Command): void {}
