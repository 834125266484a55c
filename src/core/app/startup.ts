import type { AppContext } from '../context';

/**
 * Work the app shells (Electron main, browser shell) do once at start, e.g. seeding the demo
 * library on first run. The CLI never calls this: its data dirs start empty.
 */
export async function runStartupTasks(_ctx: AppContext): Promise<void> {}
