/**
 * Electron main: one window with the secure defaults, the API table over IPC, native dialogs.
 * Everything else lives in src/core (plain Node) so it is tested without Electron.
 */
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import type { ApiName } from '../core/api/table';
import { toErrorPayload } from '../core/common/errors';
import { runStartupTasks } from '../core/app/startup';
import { IPC_CHANNELS } from '../preload/channels';
import { configureLlm } from '../core/llm/client';

let ctx: AppContext | undefined;
const running = new Map<string, AbortController>();

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'GridCode 规程助手',
    show: false,
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  // No remote content: block navigation away from the app and every new window.
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== win.webContents.getURL()) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // the dev server URL is honoured only in development: a packaged app never loads remote code
  if (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(path.join(__dirname, '../renderer/index.html'));
  return win;
}

/** The DashScope key lives only in main, encrypted by the OS keychain; core gets it via configureLlm. */
function apiKeyFile(): string {
  return path.join(app.getPath('userData'), 'dashscope-key.bin');
}

function loadStoredApiKey(context: AppContext): void {
  try {
    if (!fs.existsSync(apiKeyFile()) || !safeStorage.isEncryptionAvailable()) return;
    configureLlm(context, { apiKey: safeStorage.decryptString(fs.readFileSync(apiKeyFile())) });
  } catch {
    // an unreadable key (keychain changed) is treated as no key; the user can enter it again
  }
}

function storeApiKey(context: AppContext, key: string | null): void {
  const trimmed = key?.trim() || null;
  if (trimmed === null) {
    fs.rmSync(apiKeyFile(), { force: true });
  } else {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('系统密钥库不可用，无法安全保存密钥');
    fs.writeFileSync(apiKeyFile(), safeStorage.encryptString(trimmed), { mode: 0o600 });
  }
  configureLlm(context, { apiKey: trimmed });
}

function registerIpc(context: AppContext): void {
  ipcMain.handle(IPC_CHANNELS.setApiKey, (_event, key: string | null) => storeApiKey(context, typeof key === 'string' ? key : null));
  ipcMain.handle(IPC_CHANNELS.invoke, async (event, requestId: string, name: ApiName, input: unknown) => {
    const abort = new AbortController();
    running.set(requestId, abort);
    try {
      const data = await invokeOperation(context, name, input, {
        signal: abort.signal,
        progress: (ev) => event.sender.send(IPC_CHANNELS.progress, requestId, ev),
      });
      return { ok: true, data };
    } catch (e) {
      return { ok: false, error: toErrorPayload(e) };
    } finally {
      running.delete(requestId);
    }
  });
  ipcMain.on(IPC_CHANNELS.cancel, (_event, requestId: string) => running.get(requestId)?.abort());
  ipcMain.handle(IPC_CHANNELS.pickFiles, async (event, options: { directory?: boolean; filters?: Electron.FileFilter[] }) => {
    const win = BrowserWindow.fromWebContents(event.sender);
    const result = await dialog.showOpenDialog(win!, {
      properties: options?.directory ? ['openDirectory'] : ['openFile', 'multiSelections'],
      filters: options?.filters,
    });
    return result.canceled ? [] : result.filePaths;
  });
}

app.whenReady().then(async () => {
  // the app needs no camera, microphone, notifications, geolocation...: deny every permission request
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  // Packaged builds keep demo data and models outside the asar archive.
  if (app.isPackaged) {
    process.env.GRIDCODE_RESOURCES_DIR ??= path.join(process.resourcesPath, 'resources');
    process.env.GRIDCODE_MODELS_DIR ??= path.join(process.resourcesPath, 'models');
  }
  ctx = createAppContext({ dataDir: process.env.GRIDCODE_DATA_DIR ?? path.join(app.getPath('userData'), 'data') });
  loadStoredApiKey(ctx);
  await runStartupTasks(ctx);
  registerIpc(ctx);
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('window-all-closed', async () => {
  await ctx?.close();
  if (process.platform !== 'darwin') app.quit();
});
