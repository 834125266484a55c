// Entry of the shell's operation runner process from source: teach it TypeScript, then load op-runner.ts.
import { register } from 'tsx/esm/api';

register();
await import('./op-runner.ts');
