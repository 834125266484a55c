import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { defineOperation } from '../api/operation';
import { schemaVersions } from '../store/migrations';
import { projectRoot } from '../common/paths';

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

export const modelStatusSchema = z.object({
  state: z.enum(['ready', 'missing', 'error']),
  model_id: z.string().nullable(),
  dims: z.number().int().nullable(),
  message: z.string(),
});

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
  schema_version: z.number().int(),
  schema_versions: z.record(z.string(), z.number().int()),
  embedding_model: modelStatusSchema,
  search_mode: z.enum(['hybrid', 'lexical']),
  config_warning: z.string().nullable(),
});

export const appOperations = {
  'app.info': defineOperation({
    name: 'app.info',
    summary: '应用信息：版本、数据目录、数据库版本、嵌入模型状态 / App info: versions, data dir, schema, model status',
    input: z.object({}).strict(),
    output: appInfoOutput,
    handler: (ctx) => {
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
        schema_version: schema.total,
        schema_versions: schema.domains,
        embedding_model: model,
        search_mode: model.state === 'ready' ? ('hybrid' as const) : ('lexical' as const),
        config_warning: ctx.configWarning ?? null,
      };
    },
  }),
};
