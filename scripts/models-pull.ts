/**
 * `npm run models:pull -- [id] [--user]` downloads a model listed in models/manifest.json from
 * the Hugging Face hub (on a connected machine), with a progress bar on stderr and sha256
 * check (or recording, when the manifest has none yet). Files land in a staging folder and
 * only become the model folder when every file is complete and the model loads.
 *
 *   id       manifest id (default: the manifest's default entry)
 *   --user   install into <data-dir>/models (for read-only installs) instead of models/
 *
 * Env: GRIDCODE_HF_BASE_URL (or HF_ENDPOINT) mirror base URL, default https://huggingface.co;
 * GRIDCODE_MODELS_DIR models dir; GRIDCODE_PULL_TIMEOUT_MS connect timeout (default 15000).
 * Offline it fails within the timeout with a message saying what to do instead.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { defaultDataDir, modelsDir as defaultModelsDir } from '../src/core/common/paths';
import { readManifest, userModelsDir, writeManifest, type ModelEntry } from '../src/core/embed/manifest';
import { WorkerClient, shutdownEmbedWorker } from '../src/core/embed/worker-client';

class PullError extends Error {}

function baseUrl(): string {
  const base = process.env.GRIDCODE_HF_BASE_URL || process.env.HF_ENDPOINT || 'https://huggingface.co';
  return base.endsWith('/') ? base : `${base}/`;
}

function fileUrl(entry: ModelEntry, file: string): string {
  return new URL(`${entry.source}/resolve/main/${file.split('/').map(encodeURIComponent).join('/')}`, baseUrl()).href;
}

function describeNetworkError(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return '连接超时';
  return err.cause?.code ?? err.cause?.message ?? err.message ?? String(e);
}

function offlineMessage(entry: ModelEntry, reason: string): string {
  return [
    `无法连接 ${baseUrl()}（${reason}）：这台电脑似乎离线，或无法访问 Hugging Face。`,
    `应用仍可使用，检索只用关键词。可以：`,
    `  1. 在联网的电脑上运行 npm run models:pull -- ${entry.id}，把 models/${entry.folder} 文件夹拷贝过来，`,
    `     再运行 npx gridcode models import <文件夹> --id ${entry.id}；`,
    `  2. 或设置 GRIDCODE_HF_BASE_URL 指向可访问的镜像（如 https://hf-mirror.com）。`,
  ].join('\n');
}

async function open(url: string, timeoutMs: number, entry: ModelEntry): Promise<Response> {
  let res: Response;
  try {
    // the timeout covers connecting and the response headers; the body streams without one
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new PullError(offlineMessage(entry, describeNetworkError(e)));
  }
  if (!res.ok) {
    const hint = res.status === 401 || res.status === 403 ? '（需要登录或无权访问）' : res.status === 404 ? '（文件不存在，清单中的路径可能有误）' : '';
    throw new PullError(`下载失败：${url} 返回 HTTP ${res.status}${hint}`);
  }
  return res;
}

async function download(entry: ModelEntry, file: string, dest: string, timeoutMs: number, bars: cliProgress.MultiBar | null): Promise<string> {
  const url = fileUrl(entry, file);
  const res = await open(url, timeoutMs, entry);
  const total = Number(res.headers.get('content-length') ?? 0);
  const bar = bars?.create(Math.max(total, 1), 0, { file });
  const hash = crypto.createHash('sha256');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const out = fs.createWriteStream(dest);
  let done = 0;
  let lastLine = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      done += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      if (bar) bar.update(done);
      else if (Date.now() - lastLine > 2000) {
        process.stderr.write(`  ${file} ${(done / 1048576).toFixed(1)}${total ? `/${(total / 1048576).toFixed(1)}` : ''} MB\n`);
        lastLine = Date.now();
      }
    }
  } catch (e) {
    out.destroy();
    throw new PullError(`下载 ${url} 中断：${describeNetworkError(e)}`);
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  if (bar) {
    bar.setTotal(Math.max(done, 1));
    bar.update(done);
  } else {
    process.stderr.write(`  ${file} ${(done / 1048576).toFixed(1)} MB 完成\n`);
  }
  if (total && done !== total) throw new PullError(`下载 ${url} 不完整：${done}/${total} 字节`);
  return hash.digest('hex');
}

export async function pull(argv: string[]): Promise<void> {
  const user = argv.includes('--user');
  const wanted = argv.find((a) => !a.startsWith('-'));
  const timeoutMs = Number(process.env.GRIDCODE_PULL_TIMEOUT_MS ?? 15000);
  const bundledDir = defaultModelsDir();
  const bundled = readManifest(bundledDir);
  const entry = wanted ? bundled.models.find((m) => m.id === wanted) : (bundled.models.find((m) => m.default) ?? bundled.models[0]);
  if (!entry) {
    const ids = bundled.models.map((m) => m.id).join('、') || '（清单为空）';
    throw new PullError(`模型清单 ${path.join(bundledDir, 'manifest.json')} 中没有 ${wanted ?? '默认模型'}；可选：${ids}`);
  }
  if (!entry.source) throw new PullError(`模型 ${entry.id} 没有 source（Hugging Face 仓库），无法下载；请用 gridcode models import 导入`);

  const targetDir = user ? userModelsDir(defaultDataDir()) : bundledDir;
  const finalDir = path.join(targetDir, entry.folder);
  fs.mkdirSync(targetDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(targetDir, `.pull-${entry.folder}-`));
  const stagedModel = path.join(staging, entry.folder);
  process.stderr.write(`下载 ${entry.id}（${entry.source}，${entry.files.length} 个文件）到 ${finalDir}\n`);
  const bars = process.stderr.isTTY
    ? new cliProgress.MultiBar(
        { format: '  {file} [{bar}] {percentage}% {value}/{total} B', stream: process.stderr, hideCursor: true, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      )
    : null;
  try {
    const files: ModelEntry['files'] = [];
    for (const f of entry.files) {
      const sha = await download(entry, f.path, path.join(stagedModel, f.path), timeoutMs, bars);
      if (f.sha256 && f.sha256 !== sha) {
        throw new PullError(`${f.path} 的 sha256 不匹配（清单 ${f.sha256}，下载得到 ${sha}）：文件可能被篡改或镜像过期，已丢弃`);
      }
      files.push({ path: f.path, sha256: sha });
    }
    bars?.stop();

    // prove it loads and produces vectors of the listed size before it counts as installed
    const probe = new WorkerClient({ modelRoot: staging, folder: entry.folder, dtype: entry.dtype, pooling: entry.pooling, normalize: entry.normalize }, entry.id);
    try {
      const [v] = await probe.embed(['模型下载校验']);
      if (v.length !== entry.dims) throw new PullError(`模型 ${entry.id} 输出 ${v.length} 维，清单写 ${entry.dims} 维`);
    } finally {
      await probe.terminate();
      await shutdownEmbedWorker();
    }

    fs.rmSync(finalDir, { recursive: true, force: true });
    fs.renameSync(stagedModel, finalDir);
    const updated: ModelEntry = { ...entry, files };
    if (user) {
      const manifest = readManifest(targetDir);
      manifest.models = [...manifest.models.filter((m) => m.id !== entry.id), updated];
      writeManifest(targetDir, manifest);
    } else {
      bundled.models = bundled.models.map((m) => (m.id === entry.id ? updated : m));
      writeManifest(targetDir, bundled);
    }
    process.stderr.write(`完成：${entry.id} 已安装到 ${finalDir}，sha256 已记录到 ${path.join(targetDir, 'manifest.json')}\n`);
  } finally {
    bars?.stop();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

pull(process.argv.slice(2)).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`错误：${e instanceof Error ? e.message : String(e)}\n`);
    if (!(e instanceof PullError) && process.env.GRIDCODE_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    process.exit(1);
  },
);
