/** Where the e2e run builds and seeds: shared by the global setup and the shell helper (neither imports the other). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATE_DIR = path.join(ROOT, '.cache', `e2e-template-${process.env.E2E_PORT ?? 'default'}`);
