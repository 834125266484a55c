import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { schemaVersions } from '../store/migrations';
import { tableSizes } from '../store/db';
import { projectRoot } from '../common/paths';
import { GridError } from '../common/errors';
import { CONFIG_FILE_NAME, configSchema, saveConfig } from '../config';
import { modelStatusSchema } from '../embed/types';

const require = createRequire(import.meta.url);

function packageVersion(name: string): string | null {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    // packages whose "exports" hide package.json
    try {
      const file = path.join(projectRoot(), 'node_modules', name, 'package.json');
      return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      return null;
    }
  }
}

// Read at run time (not imported) so the bundled Electron main finds it too.
const appPackage = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { name: string; version: string };

export const appInfoOutput = z.object({
  name: z.string(),
  version: z.string(),
  versions: z.object({
    node: z.string(),
    electron: z.string().nullable(),
    sqlite: z.string(),
    transformers: z.string().nullable(),
    onnxruntime: z.string().nullable(),
  }),
  data_dir: z.string(),
  /** bundled demo data (demo home, recipes, regulations) */
  resources_dir: z.string(),
  schema_version: z.number().int(),
  schema_versions: z.record(z.string(), z.number().int()),
  embedding_model: modelStatusSchema,
  search_mode: z.enum(['hybrid', 'lexical']),
  config_warning: z.string().nullable(),
  /** with `storage: true`: bytes on disk per table (indexes counted with their table) */
  storage: z.record(z.string(), z.number().int()).optional(),
  /** with `storage: true`: the persisted search index files in <data-dir>/index, bytes per file */
  index_files: z.record(z.string(), z.number().int()).optional(),
  /** with `storage: true`: the whole data dir (database, WAL, index files, models, source copies) */
  data_dir_bytes: z.number().int().optional(),
});

function dirBytes(dir: string): number {
  let n = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    try {
      n += e.isDirectory() ? dirBytes(p) : e.isFile() ? fs.statSync(p).size : 0;
    } catch {
      // removed meanwhile
    }
  }
  return n;
}

function storageReport(dataDir: string, db: Parameters<typeof tableSizes>[0]) {
  const indexDir = path.join(dataDir, 'index');
  const index_files: Record<string, number> = {};
  try {
    for (const f of fs.readdirSync(indexDir)) if (f.endsWith('.bin')) index_files[f] = fs.statSync(path.join(indexDir, f)).size;
  } catch {
    // no index files yet
  }
  return { storage: tableSizes(db), index_files, data_dir_bytes: dirBytes(dataDir) };
}

export const appOperations = defineOperations({
  'app.info': defineOperation({
    summary: '应用信息：版本、数据目录、数据库版本、嵌入模型状态 / App info: versions, data dir, schema, model status',
    input: z
      .object({ storage: z.boolean().optional().describe('也统计数据目录各表占用（读取整个数据库，约 1 秒） / also report bytes per table') })
      .strict(),
    output: appInfoOutput,
    handler: (ctx, input) => {
      const sqlite = (ctx.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
      const schema = schemaVersions(ctx.db);
      const model = ctx.embedder().status();
      return {
        name: appPackage.name,
        version: appPackage.version,
        versions: {
          node: process.versions.node,
          electron: process.versions.electron ?? null,
          sqlite,
          transformers: packageVersion('@huggingface/transformers'),
          onnxruntime: packageVersion('onnxruntime-node'),
        },
        data_dir: ctx.dataDir,
        resources_dir: ctx.resourcesDir,
        schema_version: schema.total,
        schema_versions: schema.domains,
        embedding_model: model,
        search_mode: model.state === 'ready' ? ('hybrid' as const) : ('lexical' as const),
        config_warning: ctx.configWarning ?? null,
        ...(input.storage ? storageReport(ctx.dataDir, ctx.db) : {}),
      };
    },
  }),
  // Settings screen (renderer): read and change <data-dir>/config.json; the running context picks it up at once.
  'app.config': defineOperation({
    summary: '读取当前配置（阈值、LLM 开关等） / Read the effective configuration',
    input: z.object({}).strict(),
    output: z.object({ config: configSchema, file: z.string(), warning: z.string().nullable() }),
    handler: (ctx) => ({ config: ctx.config, file: path.join(ctx.dataDir, CONFIG_FILE_NAME), warning: ctx.configWarning ?? null }),
  }),
  'app.update_config': defineOperation({
    summary: '修改配置的部分字段并保存到 config.json / Patch configuration sections and save config.json',
    input: z
      .object({
        patch: z.record(z.string(), z.record(z.string(), z.unknown())).describe('{ 分区: { 字段: 值 } }，如 {"llm": {"enabled": true}}'),
      })
      .strict(),
    output: z.object({ config: configSchema, file: z.string() }),
    handler: (ctx, input) => {
      const current = ctx.config as unknown as Record<string, Record<string, unknown>>;
      const merged: Record<string, Record<string, unknown>> = { ...current };
      for (const [section, fields] of Object.entries(input.patch)) {
        if (!(section in current)) throw new GridError('INVALID_INPUT', `patch.${section}: 没有这个配置分区`);
        merged[section] = { ...current[section], ...fields };
      }
      const parsed = configSchema.safeParse(merged);
      if (!parsed.success) {
        const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
        throw new GridError('INVALID_INPUT', `配置无效，未保存 — ${why}`);
      }
      saveConfig(ctx.dataDir, parsed.data);
      ctx.config = parsed.data;
      ctx.configWarning = undefined;
      return { config: parsed.data, file: path.join(ctx.dataDir, CONFIG_FILE_NAME) };
    },
  }),
});
