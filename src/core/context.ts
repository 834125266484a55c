import fs from 'node:fs';
import path from 'node:path';
import type { FileAccess } from './common/file-access';
import { loadConfig, type AppConfig } from './config';
import { openDatabase, type Db } from './store/db';
import { allMigrations } from './schema';
import { defaultDataDir, modelsDir, resourcesDir } from './common/paths';
import type { Embedder } from './embed/types';
import { createEmbedder } from './embed/create';
import { ContextState } from './common/cache';

/**
 * Everything an operation needs, created once per process (CLI run, Electron main,
 * browser shell, MCP server). No Electron types here: the core runs in plain Node.
 */
export interface AppContext {
  dataDir: string;
  db: Db;
  config: AppConfig;
  configWarning?: string;
  resourcesDir: string;
  modelsDir: string;
  /** Lazily started; the worker is only spawned when something embeds. */
  embedder(): Embedder;
  /** Per-process state (settings, loaded search indexes): engines keep typed slots on it (common/cache.ts). */
  state: ContextState;
  /** Set by adapters that serve other programs (MCP, browser bridge): files they may read. Unset = no limit. */
  fileAccess?: FileAccess;
  close(): Promise<void>;
}

export interface ContextOptions {
  dataDir?: string;
  modelsDir?: string;
  resourcesDir?: string;
}

export function createAppContext(options: ContextOptions = {}): AppContext {
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(dataDir, allMigrations);
  const { config, warning } = loadConfig(dataDir);
  const models = options.modelsDir ?? modelsDir();
  let embedder: Embedder | undefined;
  const ctx: AppContext = {
    dataDir,
    db,
    config,
    configWarning: warning,
    resourcesDir: options.resourcesDir ?? resourcesDir(),
    modelsDir: models,
    state: new ContextState(),
    embedder() {
      embedder ??= createEmbedder({ db, modelsDir: models, dataDir, batchSize: config.embed.batchSize });
      return embedder;
    },
    async close() {
      if (embedder) await embedder.close();
      db.close();
    },
  };
  return ctx;
}
