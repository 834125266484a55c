import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import type { ProgressEvent } from '../../../src/core/common/operation';
import { createEmbedder, type LocalEmbedder } from '../../../src/core/embed/create';
import { tempContext, tempDir } from '../../helpers';
import { testModelDir, testModelsDir, TEST_MODEL_DIMS, TEST_MODEL_ID } from '../../fixtures/model';

const root = path.resolve(__dirname, '../../..');

function userModels(ctx: { dataDir: string }): string[] {
  const dir = path.join(ctx.dataDir, 'models');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('models.import', () => {
  it('copies a hand-copied model folder into the data dir, reports progress, and makes it the active model', async () => {
    const ctx = tempContext({ modelsDir: tempDir('gridcode-empty-models-') });
    try {
      expect((await invokeOperation(ctx, 'models.status', {})).state).toBe('missing');
      const events: ProgressEvent[] = [];
      const out = await invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: 'tiny-import' }, { progress: (e) => events.push(e) });

      expect(out.model).toMatchObject({ id: 'tiny-import', dims: TEST_MODEL_DIMS, location: 'user', state: 'installed', active: true, dtype: 'fp32' });
      expect(out.model.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256 ?? ''))).toBe(true);
      expect(out.dir).toBe(path.join(ctx.dataDir, 'models', 'tiny-import'));
      expect(fs.existsSync(path.join(out.dir, 'onnx', 'model.onnx'))).toBe(true);
      expect(out.status.state).toBe('ready');
      expect(events.some((e) => e.stage === '复制模型文件' && e.done === e.total)).toBe(true);
      expect(events.some((e) => e.stage === '校验模型' && e.done === 1)).toBe(true);
      // only the model folder and the manifest are left: the staging folder is gone
      expect(userModels(ctx).sort()).toEqual(['manifest.json', 'tiny-import']);

      const list = await invokeOperation(ctx, 'models.list', {});
      expect(list.active).toBe('tiny-import');
      expect(list.models.find((m) => m.id === 'tiny-import')).toMatchObject({ state: 'installed', location: 'user' });

      // the imported copy embeds exactly like the generated original (same files)
      const imported = ctx.embedder() as LocalEmbedder;
      const original = createEmbedder({ db: ctx.db, modelsDir: testModelsDir(), dataDir: tempDir(), batchSize: 8, cache: false });
      try {
        const [a] = await imported.embed(['母线失压'], 'passage');
        const [b] = await original.embed(['母线失压'], 'passage');
        expect(Array.from(a)).toEqual(Array.from(b));
      } finally {
        await original.close();
      }

      await expect(invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: 'tiny-import' })).rejects.toMatchObject({ code: 'CONFLICT' });
      const replaced = await invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: 'tiny-import', replace: true, pooling: 'cls' });
      expect(replaced.model.pooling).toBe('cls');
      expect(userModels(ctx).sort()).toEqual(['manifest.json', 'tiny-import']);
    } finally {
      await ctx.cleanup();
    }
  });

  it('rejects folders that are not models, naming the file and reason, and leaves nothing behind', async () => {
    const ctx = tempContext({ modelsDir: tempDir('gridcode-empty-models-') });
    try {
      const noTokenizer = tempDir('gridcode-bad-model-');
      fs.cpSync(testModelDir(), noTokenizer, { recursive: true });
      fs.rmSync(path.join(noTokenizer, 'tokenizer.json'));
      await expect(invokeOperation(ctx, 'models.import', { folder: noTokenizer, id: 'broken' })).rejects.toMatchObject({
        code: 'BAD_FILE',
        message: expect.stringContaining('tokenizer.json'),
      });

      const badConfig = tempDir('gridcode-bad-model-');
      fs.cpSync(testModelDir(), badConfig, { recursive: true });
      fs.writeFileSync(path.join(badConfig, 'config.json'), '{ not json');
      await expect(invokeOperation(ctx, 'models.import', { folder: badConfig, id: 'broken' })).rejects.toMatchObject({
        code: 'BAD_FILE',
        message: expect.stringContaining('config.json'),
      });

      // passes the cheap header check but cannot be loaded: the worker probe catches it
      const badOnnx = tempDir('gridcode-bad-model-');
      fs.cpSync(testModelDir(), badOnnx, { recursive: true });
      fs.writeFileSync(path.join(badOnnx, 'onnx', 'model.onnx'), Buffer.concat([Buffer.from([0x08, 0x07]), Buffer.from('garbage, not a graph')]));
      await expect(invokeOperation(ctx, 'models.import', { folder: badOnnx, id: 'broken' })).rejects.toMatchObject({
        code: 'BAD_FILE',
        message: expect.stringContaining('broken'),
      });

      await expect(invokeOperation(ctx, 'models.import', { folder: path.join(badOnnx, 'nope') })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: '../escape' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(invokeOperation(ctx, 'models.import', { folder: 42 } as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('folder'),
      });

      expect(userModels(ctx).filter((f) => f !== 'manifest.json')).toEqual([]);
      expect((await invokeOperation(ctx, 'models.status', {})).state).toBe('missing');
    } finally {
      await ctx.cleanup();
    }
  });

  it('models.select chooses among installed models and null returns to the default', async () => {
    const ctx = tempContext({ modelsDir: testModelsDir() });
    try {
      await invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: 'second' });
      // the manifest default stays active after an import
      expect((await invokeOperation(ctx, 'models.status', {})).model_id).toBe(TEST_MODEL_ID);
      expect((await invokeOperation(ctx, 'models.select', { id: 'second' })).model_id).toBe('second');
      expect((ctx.embedder() as LocalEmbedder).model()?.id).toBe('second');
      await expect(invokeOperation(ctx, 'models.select', { id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await invokeOperation(ctx, 'models.select', { id: null })).model_id).toBe(TEST_MODEL_ID);
    } finally {
      await ctx.cleanup();
    }
  });
});

describe('models CLI', () => {
  it('gridcode models status/list --json print the operation output', () => {
    const dataDir = tempDir();
    const env = { ...process.env, GRIDCODE_MODELS_DIR: testModelsDir() };
    const status = spawnSync(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), '--data-dir', dataDir, 'models', 'status', '--json'], { env, encoding: 'utf8' });
    expect(status.status, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'ready', model_id: TEST_MODEL_ID, dims: TEST_MODEL_DIMS });

    const list = spawnSync(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), '--data-dir', dataDir, '--json', 'models', 'list'], { env, encoding: 'utf8' });
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).models[0]).toMatchObject({ id: TEST_MODEL_ID, state: 'installed', active: true });

    const bad = spawnSync(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), '--data-dir', dataDir, 'models', 'import', path.join(dataDir, 'missing'), '--json'], { env, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('NOT_FOUND');
    expect(bad.stderr).toContain('模型文件夹不存在');
  });
});

describe('manifests', () => {
  it('a broken user manifest gives an error status naming the file instead of crashing', async () => {
    const ctx = tempContext({ modelsDir: testModelsDir() });
    try {
      fs.mkdirSync(path.join(ctx.dataDir, 'models'), { recursive: true });
      fs.writeFileSync(path.join(ctx.dataDir, 'models', 'manifest.json'), '{"models": [{"id": "x"');
      const s = await (ctx.embedder() as LocalEmbedder).reload();
      expect(s.state).toBe('error');
      expect(s.message).toContain(path.join(ctx.dataDir, 'models', 'manifest.json'));
      await expect(invokeOperation(ctx, 'models.list', {})).rejects.toMatchObject({ code: 'BAD_FILE' });
      const info = await invokeOperation(ctx, 'app.info', {});
      expect(info.search_mode).toBe('lexical');
    } finally {
      await ctx.cleanup();
    }
  });

  it('a user-imported model with a bundled id overrides the bundled entry but keeps it the default', async () => {
    const bundled = tempDir('gridcode-models-');
    const manifest = JSON.parse(fs.readFileSync(path.join(testModelsDir(), 'manifest.json'), 'utf8'));
    // bundled manifest lists the model, but the install folder does not have its files
    fs.writeFileSync(path.join(bundled, 'manifest.json'), JSON.stringify(manifest));
    const ctx = tempContext({ modelsDir: bundled });
    try {
      expect(ctx.embedder().status().state).toBe('missing');
      const out = await invokeOperation(ctx, 'models.import', { folder: testModelDir(), id: TEST_MODEL_ID });
      // the bundled entry's settings (query prefix, default flag) carry over to the imported copy
      expect(out.model).toMatchObject({ id: TEST_MODEL_ID, location: 'user', default: true, query_prefix: manifest.models[0].query_prefix });
      expect(out.status).toMatchObject({ state: 'ready', model_id: TEST_MODEL_ID });
      const list = await invokeOperation(ctx, 'models.list', {});
      expect(list.models).toHaveLength(1);
    } finally {
      await ctx.cleanup();
    }
  });
});
