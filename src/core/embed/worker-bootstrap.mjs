// Dev/test entry of the embedding worker (tsx, vitest, CLI from source): teach this thread
// TypeScript, then load worker.ts. Bundled builds use the compiled sibling embed-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
