/**
 * Electron main: one window with the secure defaults, the API table over IPC, native dialogs.
 * Everything else lives in src/core (plain Node) so it is tested without Electron.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import path from 'node:path';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import type { ApiName } from '../core/api/table';
import { toErrorPayload } from '../core/common/errors';
import { runStartupTasks } from '../core/app/startup';
import { IPC_CHANNELS } from '../preload/channels';
import { configureLlm, currentLlmSettings, onLlmSettingsChanged } from '../core/llm/client';
import { createKeyStore, type KeyStore } from './key-store';
import { APP_SCHEME, CSP, guardHandler, guardListener, serveRendererRequest, trustedOrigins, windowUrl } from './security';

let ctx: AppContext | undefined;
const running = new Map<string, AbortController>();

// the renderer is served from app://gridcode (a standard, secure scheme) so its responses carry the CSP header
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** The dev server only in an unpackaged app: a packaged app never loads remote code. */
const devUrl = () => (app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL);
const rendererDir = () => path.join(__dirname, '../renderer');

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
  void win.loadURL(windowUrl({ isPackaged: app.isPackaged, devUrl: devUrl() }));
  return win;
}

/**
 * The DashScope key lives only in main, encrypted by the OS keychain, stored with the base URL it was
 * entered for; core gets it via configureLlm. Whatever changes the settings (Settings' key field over
 * setApiKey, or llm.configure) is persisted through core's settings listener.
 */
function keyStore(): KeyStore {
  return createKeyStore(path.join(app.getPath('userData'), 'dashscope-key.bin'), safeStorage);
}

function loadStoredSettings(context: AppContext, store: KeyStore): void {
  const stored = store.load();
  if (stored) configureLlm(context, stored);
}

function setApiKey(context: AppContext, key: string | null): void {
  // a key entered now belongs to the endpoint in effect now (configureLlm binds it)
  configureLlm(context, { ...currentLlmSettings(context), apiKey: key?.trim() || null, keyBaseUrl: null }, { notify: true });
}

function registerIpc(context: AppContext): void {
  // only our own top-level renderer frame may call main (not an embedded frame, not another origin)
  const origins = trustedOrigins({ isPackaged: app.isPackaged, devUrl: devUrl() });
  ipcMain.handle(
    IPC_CHANNELS.setApiKey,
    guardHandler(origins, (_event, key: unknown) => setApiKey(context, typeof key === 'string' ? key : null)),
  );
  ipcMain.handle(
    IPC_CHANNELS.invoke,
    guardHandler(origins, async (event: Electron.IpcMainInvokeEvent, requestId: string, name: ApiName, input: unknown) => {
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
    }),
  );
  ipcMain.on(IPC_CHANNELS.cancel, guardListener(origins, (_event: Electron.IpcMainEvent, requestId: string) => running.get(requestId)?.abort()));
  ipcMain.handle(
    IPC_CHANNELS.pickFiles,
    guardHandler(origins, async (event: Electron.IpcMainInvokeEvent, options: { directory?: boolean; filters?: Electron.FileFilter[] }) => {
      const win = BrowserWindow.fromWebContents(event.sender);
      const result = await dialog.showOpenDialog(win!, {
        properties: options?.directory ? ['openDirectory'] : ['openFile', 'multiSelections'],
        filters: options?.filters,
      });
      return result.canceled ? [] : result.filePaths;
    }),
  );
}

app.whenReady().then(async () => {
  // the app needs no camera, microphone, notifications, geolocation...: deny every permission request
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  // the dev server's responses get the same CSP header as app:// ones
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  protocol.handle(APP_SCHEME, (request) => serveRendererRequest(request.url, rendererDir()));
  // Packaged builds keep demo data and models outside the asar archive.
  if (app.isPackaged) {
    process.env.GRIDCODE_RESOURCES_DIR ??= path.join(process.resourcesPath, 'resources');
    process.env.GRIDCODE_MODELS_DIR ??= path.join(process.resourcesPath, 'models');
  }
  ctx = createAppContext({ dataDir: process.env.GRIDCODE_DATA_DIR ?? path.join(app.getPath('userData'), 'data') });
  const store = keyStore();
  loadStoredSettings(ctx, store);
  onLlmSettingsChanged((_context, settings) => store.save(settings));
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
