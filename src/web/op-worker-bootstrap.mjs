// Entry of the shell's operation thread from source (tsx, vitest): teach this thread TypeScript, then load op-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./op-worker.ts');
