/**
 * Attack replay (`npm run eval -- attack`): every attack of issues #15 and #28 against the real adapters —
 * `gridcode` CLI processes, a `gridcode mcp` process spoken to line by line, the browser-shell bridge
 * over HTTP, the IPC path (invokeOperation + main's sender check) and a local fake LLM endpoint as
 * the network boundary. Prints one row per attack: probes tried / survived / lost; exits 1 when any
 * probe is lost. Imports run without an embedding model (GRIDCODE_MODELS_DIR = an empty folder):
 * what is attacked here is the database, the files and the adapters, not the vectors.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startWebServer, type WebServer } from '../src/web/server';
import { configureLlm, resolveLlmSettings } from '../src/core/llm/client';
import { invokeOperation } from '../src/core/api/invoke';
import { createAppContext } from '../src/core/context';
import { projectRoot } from '../src/core/common/paths';
import { APP_ORIGIN, guardHandler, isTrustedSender, trustedOrigins } from '../src/main/security';
import { reply, startFakeLlmServer } from '../test/fixtures/fake-llm-server';
import { RawMcp } from '../test/fixtures/raw-mcp';
import { makeRawDocx, variedChinese, wordParagraph } from '../test/fixtures/zip';
import { testModelsDir } from '../test/fixtures/model';
import { parse as parseYaml } from 'yaml';
import { contentBomb, hostilePdf, lyingImage } from '../test/fixtures/pdf-bombs';
import { bigRegulationMarkdown, bridgeInvoke, bridgeUpload, measureStall, startBridgeProcess, writeCollectionFolder } from '../test/fixtures/bridge-process';

interface Probe {
  what: string;
  held: boolean;
  detail?: string;
}

interface Attack {
  name: string;
  run: () => Promise<Probe[]>;
}

const root = projectRoot();
const KEY = 'sk-attack-0123456789abcdefSECRET';
const SECRET = 'TOP-SECRET-LINE-42';
let work = '';
let noModels = '';
const dirs: string[] = [];
const verbose = process.argv.includes('--verbose');

function mkdir(name: string): string {
  const d = fs.mkdtempSync(path.join(work, `${name}-`));
  dirs.push(d);
  return d;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One `gridcode` process (the compiled CLI, as agents run it); `peakMb`: its resident high-water mark, read while it runs. */
function gridcode(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run & { peakMb: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, GRIDCODE_MODELS_DIR: noModels, ...env },
    });
    let stdout = '';
    let stderr = '';
    let peakMb = 0;
    const watch = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peakMb = Math.max(peakMb, Number(hwm[1]) / 1024);
      } catch {
        // exited, or no /proc
      }
    }, 50);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearInterval(watch);
      resolve({ code, stdout, stderr, peakMb });
    });
  });
}

/** Statute-like Markdown files: `count` files over `folders` sub-folders, each with its own articles. */
function writeStatutes(dir: string, folders: string[], count: number): string[] {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, folders[i % folders.length]);
    fs.mkdirSync(folder, { recursive: true });
    const articles = Array.from({ length: 6 + (i % 5) }, (_, a) => `第${a + 1}条 第${i}号规定的第${a + 1}条：运行人员应当按规定巡视设备${'并做好记录'.repeat(1 + (a % 3))}。`);
    const file = path.join(folder, `规定${i}.md`);
    fs.writeFileSync(file, `# 第${i}号运行规定\n\n## 第一章 总则\n\n${articles.join('\n\n')}\n`);
    files.push(file);
  }
  return files;
}

/** The regulations in a data dir by the file they came from. */
function regulationsBySource(dataDir: string): Map<string, string[]> {
  const db = new Database(path.join(dataDir, 'gridcode.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT reg_id, extra FROM regulations').all() as { reg_id: string; extra: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) {
      const src = (JSON.parse(r.extra) as { source_path: string }).source_path;
      out.set(src, [...(out.get(src) ?? []), r.reg_id]);
    }
    return out;
  } finally {
    db.close();
  }
}

const LOCKED = /database is locked|SQLITE_BUSY|INTERNAL/;

/** A run either succeeds or fails loudly (non-zero exit, failed rows named BUSY) — never "locked" and exit 0. */
function loudOrClean(r: Run): boolean {
  if (LOCKED.test(r.stdout + r.stderr)) return false;
  if (r.code === 0) return true;
  return /BUSY|占用/.test(r.stdout + r.stderr);
}

const concurrentImports: Attack = {
  name: 'two import processes, overlapping folders',
  async run() {
    const docs = mkdir('docs');
    const folders = ['甲', '乙', '丙', '丁'];
    const files = writeStatutes(docs, folders, 120);
    const data = mkdir('data');
    const [a, b] = await Promise.all([
      gridcode(['import', docs, '--data-dir', data, '--json']),
      gridcode(['import', ...folders.slice(0, 3).reverse().map((f) => path.join(docs, f)), '--data-dir', data, '--json']),
    ]);
    const bySource = regulationsBySource(data);
    const once = files.filter((f) => bySource.get(f)?.length === 1).length;
    return [
      { what: 'process A ends clean or fails loudly', held: loudOrClean(a), detail: `exit ${a.code}` },
      { what: 'process B ends clean or fails loudly', held: loudOrClean(b), detail: `exit ${b.code}` },
      { what: 'every file lands exactly once', held: once === files.length && bySource.size === files.length, detail: `${once}/${files.length} once, ${bySource.size} regulations` },
    ];
  },
};

const updateDuringImport: Attack = {
  name: 'update-info during an import',
  async run() {
    const docs = mkdir('docs');
    const data = mkdir('data');
    const [first, ...rest] = writeStatutes(docs, ['甲', '乙'], 80);
    const seeded = await gridcode(['import', first, '--data-dir', data, '--json', '--id', 'target']);
    if (seeded.code !== 0) return [{ what: 'seed import', held: false, detail: seeded.stderr.slice(0, 200) }];
    const importing = gridcode(['import', ...rest, '--data-dir', data, '--json']);
    const updates: Run[] = [];
    for (let i = 0; i < 4; i++) updates.push(await gridcode(['update-info', 'target', '--keywords', `巡视,记录${i}`, '--data-dir', data, '--json']));
    const imp = await importing;
    const probes = updates.map((u, i) => ({ what: `update-info #${i + 1} while importing`, held: u.code === 0 && !LOCKED.test(u.stdout + u.stderr), detail: `exit ${u.code}` }));
    probes.push({ what: 'the import itself', held: loudOrClean(imp), detail: `exit ${imp.code}` });
    const db = new Database(path.join(data, 'gridcode.sqlite'), { readonly: true });
    const kw = (db.prepare('SELECT keywords FROM regulations WHERE reg_id = ?').get('target') as { keywords: string }).keywords;
    db.close();
    probes.push({ what: 'the last update is the one kept', held: kw.includes('记录3'), detail: kw });
    return probes;
  },
};

/** The bridge, a legit and an attacker endpoint; shared by the key attacks. */
interface KeyStage {
  web: WebServer;
  legit: Awaited<ReturnType<typeof startFakeLlmServer>>;
  attacker: Awaited<ReturnType<typeof startFakeLlmServer>>;
  invoke(name: string, input: unknown): Promise<{ text: string; last: { type: string; data?: any; error?: { code: string } } }>;
}

/** The browser-shell bridge on a free port over `dataDir`, with a blank page as its UI. */
async function startBridge(dataDir: string, options: { skipStartup?: boolean } = {}): Promise<WebServer> {
  const staticDir = mkdir('static');
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  return startWebServer({ port: 0, dataDir, staticDir, ...options });
}

async function withKeyStage<T>(fn: (s: KeyStage) => Promise<T>): Promise<T> {
  const legit = await startFakeLlmServer();
  const attacker = await startFakeLlmServer();
  const web = await startBridge(mkdir('web-data'), { skipStartup: true });
  const invoke = async (name: string, input: unknown) => {
    const res = await fetch(new URL(`/api/invoke/${name}`, web.url), {
      method: 'POST',
      body: JSON.stringify(input),
      headers: { 'Content-Type': 'application/json', 'X-GridCode-Token': web.token },
    });
    const text = await res.text();
    return { text, last: JSON.parse(text.trim().split('\n').at(-1) ?? '{}') };
  };
  try {
    return await fn({ web, legit, attacker, invoke });
  } finally {
    await web.close();
    await legit.close();
    await attacker.close();
  }
}

const keyToChangedBaseUrl: Attack = {
  name: 'key to a changed base_url (bridge and IPC path)',
  async run() {
    return withKeyStage(async ({ web, legit, attacker, invoke }) => {
      legit.setHandler(() => reply.content('好'));
      attacker.setHandler(() => reply.content('好'));
      const probes: Probe[] = [];
      await invoke('llm.configure', { api_key: KEY, base_url: legit.baseUrl });
      await invoke('llm.status', { check: true });
      probes.push({ what: 'control: the key reaches the endpoint it was entered for', held: legit.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`) });
      const moved = await invoke('llm.configure', { base_url: attacker.baseUrl });
      await invoke('llm.status', { check: true });
      await invoke('llm.chat', { question: '母线失压怎么处理' });
      await invoke('llm.enrich_metadata', { all: true });
      probes.push({ what: 'bridge: configure base_url then status/chat/enrich', held: attacker.requests.every((r) => !r.headers.authorization) && !moved.text.includes(KEY), detail: `${attacker.requests.length} requests, none with a key` });
      // the IPC path: main calls invokeOperation with whatever the renderer sends
      const ctx = createAppContext({ dataDir: mkdir('ipc-data') });
      try {
        await invokeOperation(ctx, 'llm.configure', { api_key: KEY, base_url: legit.baseUrl });
        await invokeOperation(ctx, 'llm.configure', { base_url: attacker.baseUrl });
        await invokeOperation(ctx, 'llm.status', { check: true });
        probes.push({ what: 'IPC path: configure base_url then status', held: attacker.requests.every((r) => !r.headers.authorization) && resolveLlmSettings(ctx).apiKey === null });
      } finally {
        await ctx.close();
      }
      // a frame that is not our renderer cannot reach the IPC handlers at all
      const origins = trustedOrigins({ isPackaged: true });
      let ran = false;
      const handler = guardHandler(origins, () => (ran = true));
      let refused = false;
      try {
        handler({ senderFrame: { url: 'https://evil.example/', parent: null } });
      } catch {
        refused = true;
      }
      probes.push({ what: 'IPC from a foreign frame is refused', held: refused && !ran && !isTrustedSender({ senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: {} } }, origins) });
      configureLlm(web.ctx, {});
      return probes;
    });
  },
};

const plainHttp: Attack = {
  name: 'plain-http endpoint',
  async run() {
    return withKeyStage(async ({ invoke }) => {
      const probes: Probe[] = [];
      for (const base_url of ['http://203.0.113.9/v1', 'http://evil.example/v1', 'https://user:pw@evil.example/v1', 'file:///etc/passwd']) {
        const out = await invoke('llm.configure', { base_url });
        probes.push({ what: `configure ${base_url}`, held: out.last.type === 'error' && out.last.error?.code === 'INVALID_INPUT' });
      }
      const saved = { key: process.env.DASHSCOPE_API_KEY, url: process.env.DASHSCOPE_BASE_URL };
      process.env.DASHSCOPE_API_KEY = KEY;
      process.env.DASHSCOPE_BASE_URL = 'http://203.0.113.9/v1';
      const ctx = createAppContext({ dataDir: mkdir('http-data') });
      try {
        const r = resolveLlmSettings(ctx);
        probes.push({ what: 'env key with an http DASHSCOPE_BASE_URL to another host', held: r.apiKey === null && r.withheld === 'insecure_endpoint' });
      } finally {
        await ctx.close();
        if (saved.key === undefined) delete process.env.DASHSCOPE_API_KEY;
        else process.env.DASHSCOPE_API_KEY = saved.key;
        if (saved.url === undefined) delete process.env.DASHSCOPE_BASE_URL;
        else process.env.DASHSCOPE_BASE_URL = saved.url;
      }
      return probes;
    });
  },
};

const replyEchoesKey: Attack = {
  name: 'LLM reply echoing the key',
  async run() {
    return withKeyStage(async ({ legit, invoke }) => {
      legit.setHandler(() => reply.content(`收到。你的密钥是 ${KEY}，请妥善保管。`));
      const probes: Probe[] = [];
      const data = mkdir('chat-data');
      const env = { DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: legit.baseUrl };
      const plain = await gridcode(['chat', '我的密钥是什么', '--data-dir', data], env);
      probes.push({ what: 'gridcode chat (stream to terminal)', held: legit.requests.length > 0 && !(plain.stdout + plain.stderr).includes(KEY), detail: `exit ${plain.code}` });
      const json = await gridcode(['chat', '我的密钥是什么', '--data-dir', data, '--json'], env);
      probes.push({ what: 'gridcode chat --json (transcript)', held: !(json.stdout + json.stderr).includes(KEY), detail: `exit ${json.code}` });
      await invoke('llm.configure', { api_key: KEY, base_url: legit.baseUrl });
      const bridged = await invoke('llm.chat', { question: '我的密钥是什么', stream: true });
      probes.push({ what: 'bridge llm.chat (progress + result)', held: bridged.text.length > 0 && !bridged.text.includes(KEY) });
      return probes;
    });
  },
};

/** `gridcode mcp` without a model (see the header). */
async function startMcp(args: string[]): Promise<RawMcp & { ok: boolean }> {
  const mcp = RawMcp.spawn(args, { GRIDCODE_MODELS_DIR: noModels });
  let ok = false;
  try {
    ok = (await mcp.initialize()).result?.serverInfo?.name === 'gridcode';
  } catch {
    // reported by the probe that needs it
  }
  return Object.assign(mcp, { ok });
}

/** The next reply, with its size; `noReply` when none comes (a server that hangs or died loses the probe). */
async function nextReply(mcp: RawMcp, timeoutMs = 60_000): Promise<any> {
  const line = await mcp.nextLine(timeoutMs);
  return line === null ? { noReply: true, exit: mcp.exitCode } : { ...JSON.parse(line), rawLength: line.length };
}

async function callTool(mcp: RawMcp, id: number, name: string, args: unknown): Promise<any> {
  mcp.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) + '\n');
  return nextReply(mcp);
}

const replyText = (r: any) => JSON.stringify(r);

const mcpFileProbes: Attack = {
  name: 'MCP file probes',
  async run() {
    const outside = mkdir('outside');
    fs.writeFileSync(path.join(outside, 'secret.json'), `${SECRET} not json`);
    fs.writeFileSync(path.join(outside, 'secret.yaml'), `cases:\n  - ${SECRET}: [\n`);
    const mcp = await startMcp(['--data-dir', mkdir('mcp-data')]);
    try {
      if (!mcp.ok) return [{ what: 'initialize', held: false, detail: mcp.stderr.join('').slice(0, 200) }];
      const probes: Probe[] = [];
      let id = 1;
      const lint = await callTool(mcp, id++, 'devices_lint', { devices: path.join(outside, 'secret.json') });
      probes.push({ what: 'devices_lint on a file outside the allowed folders', held: !replyText(lint).includes(SECRET) && !!lint.result?.isError });
      const retrieve = await callTool(mcp, id++, 'devices_retrieve', { utterance: '打开灯', devices: path.join(outside, 'secret.yaml') });
      probes.push({ what: 'devices_retrieve on a YAML file outside', held: !replyText(retrieve).includes(SECRET) && !!retrieve.result?.isError });
      const passwd = await callTool(mcp, id++, 'devices_lint', { devices: '/etc/passwd' });
      probes.push({ what: 'devices_lint on /etc/passwd', held: !/root:|daemon:/.test(replyText(passwd)) });
      const missing = await callTool(mcp, id++, 'devices_lint', { devices: path.join(outside, 'missing.json') });
      const message = (r: any) => JSON.stringify(r.result?.content ?? r.error ?? null).replace(/secret\.json|missing\.json/g, 'X');
      probes.push({ what: 'existing and missing outside files answer alike', held: message(lint) === message(missing) });
      return probes;
    } finally {
      mcp.close();
    }
  },
};

const mcpMalformed: Attack = {
  name: 'MCP malformed JSON-RPC and oversized messages',
  async run() {
    const mcp = await startMcp(['--data-dir', mkdir('mcp-data')]);
    try {
      if (!mcp.ok) return [{ what: 'initialize', held: false }];
      const probes: Probe[] = [];
      mcp.write('this is not json\n');
      const parse = await nextReply(mcp);
      probes.push({ what: 'a line that is not JSON -> -32700', held: parse.error?.code === -32700 });
      mcp.write('{"jsonrpc":"2.0","id":7}\n');
      const invalid = await nextReply(mcp);
      probes.push({ what: 'an object without a method -> -32600', held: invalid.error?.code === -32600 });
      mcp.write('[1,2\n');
      const truncated = await nextReply(mcp);
      probes.push({ what: 'truncated JSON -> -32700', held: truncated.error?.code === -32700 });
      mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'smart_search', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } } }) + '\n');
      const huge = await nextReply(mcp);
      probes.push({ what: 'an 11 MB message -> an error reply', held: !!huge.error && !huge.noReply, detail: huge.noReply ? `no reply, exit ${huge.exit}` : `code ${huge.error?.code}` });
      mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) + '\n');
      const alive = await nextReply(mcp);
      probes.push({ what: 'the server still answers afterwards', held: alive.id === 9 && !alive.error });
      probes.push({ what: 'the process is still running', held: mcp.exitCode === null });
      return probes;
    } finally {
      mcp.close();
    }
  },
};

const prototypeNames: Attack = {
  name: 'prototype-name operation lookups',
  async run() {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'regulations.constructor', 'regulations.__proto__'];
    const probes: Probe[] = [];
    await withKeyStage(async ({ invoke }) => {
      for (const n of names) {
        const out = await invoke(n, {});
        probes.push({ what: `bridge /api/invoke/${n}`, held: /NOT_FOUND/.test(out.text) && !/INTERNAL|TypeError/.test(out.text) });
      }
    });
    const ctx = createAppContext({ dataDir: mkdir('ipc-data') });
    try {
      for (const n of names) {
        let code = '';
        try {
          await invokeOperation(ctx, n, {});
        } catch (e) {
          code = (e as { code?: string }).code ?? 'thrown';
        }
        probes.push({ what: `IPC path ${n}`, held: code === 'NOT_FOUND' });
      }
    } finally {
      await ctx.close();
    }
    const mcp = await startMcp(['--data-dir', mkdir('mcp-data')]);
    try {
      let id = 1;
      for (const n of names.slice(0, 3)) {
        const r = await callTool(mcp, id++, n, {});
        probes.push({ what: `MCP tools/call ${n}`, held: !r.noReply && !/INTERNAL|TypeError/.test(replyText(r)) && (!!r.error || !!r.result?.isError) });
      }
    } finally {
      mcp.close();
    }
    return probes;
  },
};

/** Raw HTTP over a socket: fetch() would normalise the malformed URLs these probes need. */
async function rawHttp(port: number, request: string): Promise<string> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const bridgeInput: Attack = {
  name: 'bridge: bad %-escapes, 11 MB body, ?name=.., foreign Host/Origin',
  async run() {
    return withKeyStage(async ({ web }) => {
      const probes: Probe[] = [];
      for (const p of ['/%E0%A4%A', '/api/invoke/%ZZ', '/%']) {
        const r = await rawHttp(web.port, `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`);
        probes.push({ what: `GET ${p}`, held: /^HTTP\/1\.1 (400|401)/.test(r) && !/INTERNAL/.test(r), detail: r.split('\r\n')[0] });
      }
      const big = await fetch(new URL('/api/invoke/app.info', web.url), { method: 'POST', body: JSON.stringify({ q: 'x'.repeat(11 * 1024 * 1024) }), headers: { 'X-GridCode-Token': web.token } });
      probes.push({ what: '11 MB body -> JSON 413', held: big.status === 413 && ((await big.json()) as { error: { code: string } }).error.code === 'TOO_LARGE' });
      for (const name of ['..', '.', '../../etc/passwd']) {
        const r = await fetch(new URL(`/api/upload?name=${encodeURIComponent(name)}`, web.url), { method: 'POST', body: 'abc', headers: { 'X-GridCode-Token': web.token } });
        const text = await r.text();
        const escaped = !fs.existsSync(path.join(web.ctx.dataDir, 'passwd')) && !text.includes('"path":"/etc');
        probes.push({ what: `upload ?name=${name}`, held: (r.status === 400 || (r.status === 200 && escaped)) && !/INTERNAL|EISDIR/.test(text), detail: `HTTP ${r.status}` });
      }
      web.uploads.close();
      const host = await rawHttp(web.port, `POST /api/invoke/app.info HTTP/1.1\r\nHost: evil.example:${web.port}\r\nX-GridCode-Token: ${web.token}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
      probes.push({ what: 'DNS-rebinding Host with the token', held: /^HTTP\/1\.1 403/.test(host) });
      const origin = await fetch(new URL('/api/invoke/app.info', web.url), { method: 'POST', body: '{}', headers: { 'X-GridCode-Token': web.token, Origin: 'http://evil.example' } });
      probes.push({ what: 'foreign Origin with the token', held: origin.status === 403 });
      const noToken = await fetch(new URL('/api/invoke/app.info', web.url), { method: 'POST', body: '{}' });
      probes.push({ what: 'no token', held: noToken.status === 401 });
      return probes;
    });
  },
};

const uploadCleanup: Attack = {
  name: 'upload cleanup (success, failure, over the cap)',
  async run() {
    const staticDir = mkdir('static');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const dataDir = mkdir('upload-data');
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ import: { maxFileBytes: 1024 * 1024 } }));
    const web = await startWebServer({ port: 0, dataDir, staticDir, skipStartup: true });
    const headers = { 'X-GridCode-Token': web.token };
    const upload = async (name: string, body: string | Buffer) => fetch(new URL(`/api/upload?name=${encodeURIComponent(name)}`, web.url), { method: 'POST', body, headers });
    const importPath = async (p: string) => (await fetch(new URL('/api/invoke/regulations.import', web.url), { method: 'POST', body: JSON.stringify({ paths: [p] }), headers })).text();
    const left = () => (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')).length : 0);
    try {
      const probes: Probe[] = [];
      const good = (await (await upload('规程.md', '# 规程\n\n第一条 为保证安全，制定本规程。\n')).json()) as { path: string };
      const ok = await importPath(good.path);
      probes.push({ what: 'a successful import removes its upload', held: /"imported"/.test(ok) && left() === 0 });
      const bad = (await (await upload('坏.docx', 'PK\u0003\u0004 not a zip')).json()) as { path: string };
      const failed = await importPath(bad.path);
      probes.push({ what: 'a failed import removes its upload', held: /"failed"/.test(failed) && left() === 0 });
      const huge = await upload('大.txt', Buffer.alloc(3 * 1024 * 1024, 0x61));
      probes.push({ what: 'an upload over the cap: JSON 413, nothing kept', held: huge.status === 413 && left() === 0, detail: `HTTP ${huge.status}` });
      const kept = (await (await upload('home.json', '[]')).json()) as { path: string };
      await web.close();
      probes.push({ what: 'uploads still unused are removed when the shell closes', held: !fs.existsSync(kept.path) });
      return probes;
    } finally {
      await web.close().catch(() => {});
    }
  },
};

/** ~50 MB of Chinese on one line (about 17 M characters). */
function writeOneLine(file: string, bytes: number): number {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let chars = 0;
  for (let i = 0; written < bytes; i++) {
    const block = Array.from({ length: 1000 }, (_, j) => `第${i * 1000 + j}句规定变电站值班人员应当认真巡视设备并记录，发现异常及时报告。`).join('');
    const buf = Buffer.from(block);
    fs.writeSync(fd, buf);
    written += buf.length;
    chars += block.length;
  }
  fs.closeSync(fd);
  return chars;
}

const hugeLine: Attack = {
  name: '50 MB single-line TXT: bounded pages and reads',
  async run() {
    const dir = mkdir('huge');
    const file = path.join(dir, 'one-line.txt');
    const chars = writeOneLine(file, 50 * 1024 * 1024);
    const data = mkdir('huge-data');
    const imp = await gridcode(['import', file, '--data-dir', data, '--json', '--id', 'huge']);
    const probes: Probe[] = [{ what: 'import succeeds', held: imp.code === 0, detail: `exit ${imp.code}, ${(chars / 1e6).toFixed(1)} M chars` }];
    if (imp.code !== 0) return probes;
    const db = new Database(path.join(data, 'gridcode.sqlite'), { readonly: true });
    const { pages, longest } = db.prepare('SELECT COUNT(*) AS pages, MAX(length(text)) AS longest FROM reg_pages WHERE reg_id = ?').get('huge') as { pages: number; longest: number };
    db.close();
    probes.push({ what: 'no page longer than the page ceiling (7,200)', held: longest <= 7200, detail: `${pages} pages, longest ${longest}` });
    const read = await gridcode(['read', 'huge', '1', '20', '--data-dir', data, '--json']);
    const out = JSON.parse(read.stdout) as { pages: unknown[]; truncated: boolean; next: unknown };
    probes.push({ what: 'CLI read 1 20 --json stays under 1 MB', held: read.code === 0 && read.stdout.length < 1024 * 1024 && out.pages.length > 0, detail: `${(read.stdout.length / 1024).toFixed(0)} KB` });
    // a page stored whole before pages were bounded: the read is cut and continues
    const legacy = new Database(path.join(data, 'gridcode.sqlite'));
    legacy.prepare('UPDATE reg_pages SET text = ? WHERE reg_id = ? AND page_num = 1').run(fs.readFileSync(file, 'utf8'), 'huge');
    legacy.close();
    const cut = await gridcode(['read', 'huge', '1', '--data-dir', data, '--json']);
    const cutOut = JSON.parse(cut.stdout) as { truncated: boolean; next: { offset?: number } | null };
    probes.push({ what: 'CLI read of a 17 M-character legacy page: cut, with next.offset', held: cut.stdout.length < 1024 * 1024 && cutOut.truncated && (cutOut.next?.offset ?? 0) > 0, detail: `${(cut.stdout.length / 1024).toFixed(0)} KB` });
    const mcp = await startMcp(['--data-dir', data]);
    try {
      const r = await callTool(mcp, 1, 'read_page_range', { reg_id: 'huge', start: 1 });
      probes.push({ what: 'MCP read_page_range of that page stays under 1 MB', held: !r.noReply && r.rawLength < 1024 * 1024 && /truncated/.test(replyText(r)), detail: `${((r.rawLength ?? 0) / 1024).toFixed(0)} KB` });
    } finally {
      mcp.close();
    }
    return probes;
  },
};


// ---------------------------------------------------------------- round 2 (issue 28)

const envKeyToConfigBaseUrl: Attack = {
  name: 'env key to a base_url written into config.json',
  async run() {
    return withKeyStage(async ({ web, attacker, invoke }) => {
      attacker.setHandler(() => reply.content('好'));
      const saved = { key: process.env.DASHSCOPE_API_KEY, url: process.env.DASHSCOPE_BASE_URL };
      process.env.DASHSCOPE_API_KEY = KEY;
      delete process.env.DASHSCOPE_BASE_URL;
      try {
        const probes: Probe[] = [];
        const wrote = await invoke('app.update_config', { patch: { llm: { baseUrl: attacker.baseUrl } } });
        await invoke('llm.status', { check: true });
        await invoke('llm.chat', { question: '母线失压怎么处理' });
        probes.push({ what: 'bridge: app.update_config writes llm.baseUrl, then status/chat', held: wrote.last.type === 'result' && attacker.requests.every((r) => !r.headers.authorization), detail: `${attacker.requests.length} requests, none with a key` });
        const cli = await gridcode(['llm', 'status', '--check', '--json', '--data-dir', web.ctx.dataDir], { DASHSCOPE_API_KEY: KEY });
        const mcp = await startMcp(['--data-dir', web.ctx.dataDir]);
        try {
          await callTool(mcp, 1, 'smart_search', { query: '母线' });
        } finally {
          mcp.close();
        }
        probes.push({ what: 'later CLI run on that data dir (llm status --check)', held: attacker.requests.every((r) => !r.headers.authorization) && !(cli.stdout + cli.stderr).includes(KEY) && /config\.json/.test(cli.stdout), detail: `exit ${cli.code}` });
        return probes;
      } finally {
        if (saved.key === undefined) delete process.env.DASHSCOPE_API_KEY;
        else process.env.DASHSCOPE_API_KEY = saved.key;
        if (saved.url !== undefined) process.env.DASHSCOPE_BASE_URL = saved.url;
      }
    });
  },
};

/** The hostile archives of issue 28, each small on disk (built once: the bomb inflates 300 MB to deflate it). */
let hostile: { name: string; bytes: Buffer; why: RegExp }[] | null = null;
function hostileDocx(): { name: string; bytes: Buffer; why: RegExp }[] {
  hostile ??= buildHostileDocx();
  return hostile;
}

function buildHostileDocx(): { name: string; bytes: Buffer; why: RegExp }[] {
  const para = wordParagraph('第一条 运行人员应当巡视设备。'.repeat(20));
  return [
    { name: 'bomb.docx', bytes: makeRawDocx(para.repeat(Math.ceil((300 * 1024 * 1024) / para.length))), why: /压缩比|解压后超过/ },
    { name: 'ratio.docx', bytes: makeRawDocx(para.repeat(Math.ceil((6 * 1024 * 1024) / para.length))), why: /压缩比/ },
    { name: 'lying.docx', bytes: makeRawDocx(wordParagraph(variedChinese(2000)).repeat(300), { declaredSize: 4096 }), why: /超过其声明/ },
    { name: 'paragraph.docx', bytes: makeRawDocx(wordParagraph('第一条 ' + variedChinese(1_500_000))), why: /段落过大/ },
    { name: 'entries.docx', bytes: makeRawDocx(para, {}, Array.from({ length: 6000 }, (_, i) => ({ name: `word/media/x${i}.bin`, data: 'x', store: true }))), why: /压缩条目/ },
  ];
}

const zipBombs: Attack = {
  name: 'DOCX bombs: ratio, lying sizes, paragraph, entries (CLI and bridge)',
  async run() {
    const probes: Probe[] = [];
    const dir = mkdir('bombs');
    const data = mkdir('bomb-data');
    for (const b of hostileDocx()) {
      const file = path.join(dir, b.name);
      fs.writeFileSync(file, b.bytes);
      const r = await gridcode(['import', file, '--data-dir', data, '--json']);
      const row = (JSON.parse(r.stdout || '[]') as { status: string; error?: string; error_code?: string }[])[0];
      const db = fs.statSync(path.join(data, 'gridcode.sqlite')).size;
      probes.push({ what: `CLI import ${b.name} (${(b.bytes.length / 1024).toFixed(0)} KB)`, held: row?.status === 'failed' && row.error_code === 'TOO_LARGE' && b.why.test(row.error ?? '') && db < 20 * 1024 * 1024, detail: `${row?.error_code}: ${row?.error?.slice(0, 60)} db ${(db / 1048576).toFixed(1)} MB` });
    }
    const web = await startBridge(mkdir('bomb-web'), { skipStartup: true });
    const headers = { 'X-GridCode-Token': web.token };
    try {
      for (const b of hostileDocx().slice(0, 3)) {
        const up = (await (await fetch(new URL(`/api/upload?name=${b.name}`, web.url), { method: 'POST', body: b.bytes, headers })).json()) as { path: string };
        const text = await (await fetch(new URL('/api/invoke/regulations.import', web.url), { method: 'POST', body: JSON.stringify({ paths: [up.path] }), headers })).text();
        const info = await fetch(new URL('/api/invoke/app.info', web.url), { method: 'POST', body: '{}', headers });
        probes.push({ what: `bridge import ${b.name}: fails clearly, upload removed, server alive`, held: /TOO_LARGE/.test(text) && web.uploads.pending().length === 0 && info.status === 200 });
      }
    } finally {
      await web.close();
    }
    return probes;
  },
};

const bridgePaths: Attack = {
  name: 'bridge paths outside the data dir',
  async run() {
    return withKeyStage(async ({ web, invoke }) => {
      const outside = mkdir('outside');
      fs.writeFileSync(path.join(outside, '规程.md'), `# 外部\n\n第一条 ${SECRET}\n`);
      fs.writeFileSync(path.join(outside, 'info.json'), `${SECRET} not json`);
      const probes: Probe[] = [];
      const cases: [string, unknown][] = [
        ['regulations.import_info', { path: '/etc/passwd' }],
        ['regulations.import_info', { path: path.join(outside, 'info.json') }],
        ['collections.import', { folder: '/etc', name: 'etc' }],
        ['regulations.export_info', { dir: path.join(outside, 'written') }],
        ['regulations.import', { paths: [path.join(outside, '规程.md')] }],
        ['regulations.import', { paths: ['../'.repeat(12) + 'etc/hostname'] }],
        ['models.import', { folder: outside }],
      ];
      for (const [name, input] of cases) {
        const r = await invoke(name, input);
        probes.push({ what: `${name} ${JSON.stringify(input).slice(0, 60)}`, held: r.last.type === 'error' && /不可访问/.test(r.text) && !/root:|daemon:/.test(r.text) && !r.text.includes(SECRET) && !fs.existsSync(path.join(outside, 'written')) });
      }
      fs.symlinkSync(outside, path.join(web.ctx.dataDir, 'link'));
      const linked = await invoke('regulations.import', { paths: [path.join(web.ctx.dataDir, 'link', '规程.md')] });
      probes.push({ what: 'a symlink in the data dir pointing outside', held: /不可访问/.test(linked.text) && !linked.text.includes(SECRET) });
      const list = await invoke('regulations.list', {});
      probes.push({ what: 'nothing from outside was imported', held: !JSON.stringify(list.last.data ?? []).includes('外部') });
      return probes;
    });
  },
};

const hugeStructure: Attack = {
  name: 'chapter structure of 3,000 headings; headings-only page cap',
  async run() {
    const probes: Probe[] = [];
    const dir = mkdir('heads');
    let md = '# 大规程\n\n';
    for (let i = 1; i <= 3000; i++) md += `${i % 10 === 1 ? `## 第${Math.ceil(i / 10)}章 部分\n\n` : ''}### 第${i}节 一般规定\n\n第${i}条 内容${i}。\n\n`;
    fs.writeFileSync(path.join(dir, 'heads.md'), md);
    fs.writeFileSync(path.join(dir, 'only.md'), Array.from({ length: 3000 }, (_, i) => `## 第${i + 1}节 标题${i}`).join('\n\n'));
    const data = mkdir('heads-data');
    const imp = await gridcode(['import', path.join(dir, 'heads.md'), path.join(dir, 'only.md'), '--data-dir', data, '--json']);
    probes.push({ what: 'import both', held: imp.code === 0, detail: `exit ${imp.code}` });
    const db = new Database(path.join(data, 'gridcode.sqlite'), { readonly: true });
    const longest = (db.prepare("SELECT MAX(length(text)) AS n FROM reg_pages WHERE reg_id = 'only'").get() as { n: number }).n;
    db.close();
    probes.push({ what: 'headings-only Markdown: no page over the ceiling (7,200)', held: longest <= 7200, detail: `longest ${longest}` });
    const mcp = await startMcp(['--data-dir', data]);
    try {
      const started = Date.now();
      mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_chapter_structure', arguments: { reg_id: 'heads' } } }) + '\n');
      mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
      const first = await nextReply(mcp, 120_000);
      const second = await nextReply(mcp, 120_000);
      const seconds = (Date.now() - started) / 1000;
      const chapters = [first, second].find((r) => r.id === 1);
      const count = (JSON.parse(chapters?.result?.content?.[0]?.text ?? '{"chapters":[]}') as { chapters: unknown[] }).chapters.length;
      probes.push({ what: 'MCP get_chapter_structure over 3,300 headings answers (was 469 s)', held: count === 3300 && seconds < 60, detail: `${count} chapters in ${seconds.toFixed(1)} s` });
    } finally {
      mcp.close();
    }
    return probes;
  },
};

const killedEmbedding: Attack = {
  name: 'kill -9 during embedding: status says so, the shell heals',
  async run() {
    const probes: Probe[] = [];
    const docs = mkdir('embed-docs');
    writeStatutes(docs, ['甲', '乙'], 60);
    const data = mkdir('embed-data');
    const models = testModelsDir();
    const imp = await gridcode(['import', docs, '--data-dir', data, '--json']);
    if (imp.code !== 0) return [{ what: 'seed import', held: false, detail: imp.stderr.slice(0, 200) }];
    // the vectors are written by `models embed`: kill it once it has stored some
    const child = spawn(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), 'models', 'embed', '--data-dir', data], { cwd: root, env: { ...process.env, GRIDCODE_MODELS_DIR: models }, stdio: 'ignore' });
    const stored = () => {
      try {
        const db = new Database(path.join(data, 'gridcode.sqlite'), { readonly: true, timeout: 100 });
        try {
          return (db.prepare('SELECT COUNT(*) AS n FROM search_vectors').get() as { n: number }).n;
        } finally {
          db.close();
        }
      } catch {
        return 0;
      }
    };
    const deadline = Date.now() + 120_000;
    while (stored() === 0 && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const killed = child.exitCode === null;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r).once('error', r));
    const status = await gridcode(['models', 'status', '--json', '--data-dir', data], { GRIDCODE_MODELS_DIR: models });
    const before = JSON.parse(status.stdout || '{}') as { message?: string; vectors?: { items: number; missing: number } };
    probes.push({ what: 'models status after the kill names what is missing', held: killed && (before.vectors?.missing ?? 0) > 0 && /还没有向量/.test(before.message ?? ''), detail: `killed ${killed}, missing ${before.vectors?.missing} / ${before.vectors?.items}` });
    const saved = process.env.GRIDCODE_MODELS_DIR;
    process.env.GRIDCODE_MODELS_DIR = models;
    try {
      const web = await startBridge(data);
      try {
        const { vectorHealOf } = await import('../src/core/app/startup');
        await vectorHealOf(web.ctx);
        const after = (await invokeOperation(web.ctx, 'models.status', {})) as { vectors: { items: number; missing: number } | null };
        probes.push({ what: 'the shell finishes them at start', held: after.vectors?.missing === 0 && after.vectors.items >= (before.vectors?.items ?? Infinity), detail: `missing ${after.vectors?.missing} / ${after.vectors?.items}` });
      } finally {
        await web.close();
      }
    } finally {
      if (saved === undefined) delete process.env.GRIDCODE_MODELS_DIR;
      else process.env.GRIDCODE_MODELS_DIR = saved;
    }
    return probes;
  },
};

const smallHoles: Attack = {
  name: 'YAML 1.1 booleans, GBK home file, MCP wrong-type params',
  async run() {
    const probes: Probe[] = [];
    const data = mkdir('small-data');
    const names = ['on', 'off', 'yes', 'no', 'y'];
    fs.writeFileSync(path.join(data, 'home.json'), JSON.stringify(names.map((name, i) => ({ id: `d${i}`, name, room: '客厅', type: 'light' }))));
    fs.writeFileSync(path.join(data, 'gbk.json'), Buffer.concat([Buffer.from('[{"id":"l1","name":"'), Buffer.from([0xbf, 0xcd, 0xcc, 0xfc, 0xb5, 0xc6]), Buffer.from('","room":"x","type":"light"}]')]));
    const mcp = await startMcp(['--data-dir', data]);
    try {
      const r = await callTool(mcp, 1, 'devices_retrieve', { utterance: '打开客厅的灯', devices: path.join(data, 'home.json') });
      const out = JSON.parse(r.result?.content?.[0]?.text ?? '{}') as { yaml?: string };
      const read = out.yaml ? (parseYaml(out.yaml, { version: '1.1' }) as { devices?: { name: unknown }[] }) : {};
      const got = (read.devices ?? []).map((d) => d.name);
      probes.push({ what: 'device names on/off/yes/no/y read back as strings by a YAML 1.1 reader', held: got.length > 0 && got.every((n) => typeof n === 'string'), detail: JSON.stringify(got) });
      const gbk = await callTool(mcp, 2, 'devices_lint', { devices: path.join(data, 'gbk.json') });
      probes.push({ what: 'a GBK home file is refused clearly', held: !!gbk.result?.isError && /UTF-8/.test(replyText(gbk)) });
      const wrong = await callTool(mcp, 3, 'read_page_range', { reg_id: 42, start: '一' });
      const text = wrong.result?.content?.[0]?.text ?? '';
      probes.push({ what: 'MCP wrong-type params answer readable text', held: !!wrong.result?.isError && /期望 string/.test(text) && /expected string/.test(text) && !/"code": "invalid_type"|Input validation error/.test(text) });
    } finally {
      mcp.close();
    }
    return probes;
  },
};

const pdfBombs: Attack = {
  name: 'PDF stream bombs: 2 GB page content, lying image (CLI and bridge)',
  async run() {
    const probes: Probe[] = [];
    const dir = mkdir('pdf-bombs');
    const data = mkdir('pdf-bomb-data');
    const bombs = [
      { name: 'content.pdf', bytes: hostilePdf({ pages: [contentBomb(2 * 1024 ** 3)] }), why: /一个压缩流解压后超过/ },
      { name: 'image.pdf', bytes: hostilePdf({ objects: [lyingImage(1024 ** 3)] }), why: /像素的图像/ },
    ];
    for (const b of bombs) {
      const file = path.join(dir, b.name);
      fs.writeFileSync(file, b.bytes);
      const started = Date.now();
      const r = await gridcode(['import', file, '--data-dir', data, '--json']);
      const row = (JSON.parse(r.stdout || '[]') as { status: string; error?: string; error_code?: string }[])[0];
      const db = fs.statSync(path.join(data, 'gridcode.sqlite')).size;
      // round 1: the 2 GB page imported after 3.5 min with a 7 GB peak
      probes.push({
        what: `CLI import ${b.name} (${(b.bytes.length / 1048576).toFixed(1)} MB on disk)`,
        held: row?.status === 'failed' && row.error_code === 'TOO_LARGE' && b.why.test(row.error ?? '') && db < 20 * 1048576 && r.peakMb < 1024,
        detail: `${row?.error_code}: ${row?.error?.slice(0, 50)} · ${((Date.now() - started) / 1000).toFixed(1)} s, peak ${r.peakMb.toFixed(0)} MB`,
      });
    }
    const web = await startBridge(mkdir('pdf-bomb-web'), { skipStartup: true });
    const headers = { 'X-GridCode-Token': web.token };
    try {
      const up = (await (await fetch(new URL('/api/upload?name=content.pdf', web.url), { method: 'POST', body: bombs[0].bytes, headers })).json()) as { path: string };
      const text = await (await fetch(new URL('/api/invoke/regulations.import', web.url), { method: 'POST', body: JSON.stringify({ paths: [up.path] }), headers })).text();
      const list = await invokeOperation(web.ctx, 'regulations.list', {});
      const info = await fetch(new URL('/api/invoke/app.info', web.url), { method: 'POST', body: '{}', headers });
      probes.push({ what: 'bridge import of the 2 GB page: fails clearly, nothing imported, upload removed, server alive', held: /TOO_LARGE/.test(text) && /压缩数据解压后过大/.test(text) && list.length === 0 && web.uploads.pending().length === 0 && info.status === 200 });
    } finally {
      await web.close();
    }
    return probes;
  },
};

const heavyImportStall: Attack = {
  name: 'a heavy import through the bridge while cheap requests come in',
  async run() {
    const probes: Probe[] = [];
    const web = await startBridgeProcess(mkdir('stall-data'), { GRIDCODE_MODELS_DIR: noModels });
    try {
      await bridgeInvoke(web, 'app.info', {});
      const file = await bridgeUpload(web, 'big.md', bigRegulationMarkdown());
      const reg = await measureStall(web, () => bridgeInvoke(web, 'regulations.import', { paths: [file] }));
      // round 1: a cheap request waited the import's whole length (96 % of 6.1 s; the collection 99 %, then a
      // connection reset). Held: none fails and the slowest waits under a quarter of the import (here ~1 %)
      probes.push({
        what: '8,000-article regulation: cheap requests answered while it imports',
        held: reg.last?.type === 'result' && reg.answeredBeforeImport >= 2 && reg.failures.length === 0 && reg.slowestMs < reg.importMs / 4,
        detail: `${reg.answeredBeforeImport} answered during ${(reg.importMs / 1000).toFixed(1)} s, slowest ${reg.slowestMs.toFixed(0)} ms${reg.failures.length ? `, failed: ${reg.failures[0]}` : ''}`,
      });
      const folder = path.join(web.dataDir, 'recipes');
      writeCollectionFolder(folder, 1500);
      const coll = await measureStall(web, () => bridgeInvoke(web, 'collections.import', { folder, name: 'recipes' }));
      probes.push({
        what: '1,500-file collection: cheap requests answered while it imports',
        held: coll.last?.type === 'result' && coll.answeredBeforeImport >= 2 && coll.failures.length === 0 && coll.slowestMs < coll.importMs / 4,
        detail: `${coll.answeredBeforeImport} answered during ${(coll.importMs / 1000).toFixed(1)} s, slowest ${coll.slowestMs.toFixed(0)} ms${coll.failures.length ? `, failed: ${coll.failures[0]}` : ''}`,
      });
    } finally {
      await web.close();
    }
    return probes;
  },
};

const ATTACKS: Attack[] = [concurrentImports, updateDuringImport, keyToChangedBaseUrl, plainHttp, replyEchoesKey, mcpFileProbes, mcpMalformed, prototypeNames, bridgeInput, uploadCleanup, hugeLine, envKeyToConfigBaseUrl, zipBombs, bridgePaths, hugeStructure, killedEmbedding, smallHoles, pdfBombs, heavyImportStall];

export default async function attackEval(args: string[]): Promise<void> {
  const only = args.find((a) => a.startsWith('--only='))?.slice(7);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-attack-'));
  noModels = mkdir('no-models');
  const rows: { name: string; tried: number; survived: number; lost: number; seconds: number; probes: Probe[] }[] = [];
  try {
    for (const attack of ATTACKS.filter((a) => !only || a.name.includes(only))) {
      const started = Date.now();
      let probes: Probe[];
      try {
        probes = await attack.run();
      } catch (e) {
        probes = [{ what: 'the attack run itself', held: false, detail: (e as Error).message }];
      }
      const survived = probes.filter((p) => p.held).length;
      rows.push({ name: attack.name, tried: probes.length, survived, lost: probes.length - survived, seconds: (Date.now() - started) / 1000, probes });
      const row = rows.at(-1)!;
      console.log(`${row.lost ? '✗' : '✓'} ${attack.name}: ${row.survived}/${row.tried} held (${row.seconds.toFixed(1)} s)`);
      for (const p of probes) if (!p.held || verbose) console.log(`    ${p.held ? 'held' : 'LOST'}  ${p.what}${p.detail ? ` — ${p.detail}` : ''}`);
    }
  } finally {
    for (const d of dirs.reverse()) fs.rmSync(d, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
  const w = Math.max(...rows.map((r) => r.name.length), 6);
  console.log(`\n${'attack'.padEnd(w)}  tried  survived  lost`);
  for (const r of rows) console.log(`${r.name.padEnd(w)}  ${String(r.tried).padStart(5)}  ${String(r.survived).padStart(8)}  ${String(r.lost).padStart(4)}`);
  const lost = rows.reduce((n, r) => n + r.lost, 0);
  const tried = rows.reduce((n, r) => n + r.tried, 0);
  console.log(`${'total'.padEnd(w)}  ${String(tried).padStart(5)}  ${String(tried - lost).padStart(8)}  ${String(lost).padStart(4)}`);
  console.log(lost ? `\n${lost} probe(s) lost` : '\nall rows held');
  if (lost) process.exitCode = 1;
}
