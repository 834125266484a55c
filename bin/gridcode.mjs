#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx gridcode` works right after `npm install`.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
await import(path.join(here, '..', 'src', 'cli', 'entry.ts'));
