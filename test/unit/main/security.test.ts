import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  guardHandler,
  guardListener,
  isTrustedSender,
  rendererFile,
  serveRendererRequest,
  trustedOrigins,
  windowUrl,
  UntrustedSenderError,
} from '../../../src/main/security';
import { createKeyStore, type KeyCipher } from '../../../src/main/key-store';
import { configureLlm, onLlmSettingsChanged, resolveLlmSettings } from '../../../src/core/llm/client';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const top = (url: string) => ({ senderFrame: { url, parent: null } });

describe('IPC sender check (senderFrame)', () => {
  const packaged = trustedOrigins({ isPackaged: true, devUrl: 'http://localhost:5173/' });
  const dev = trustedOrigins({ isPackaged: false, devUrl: 'http://localhost:5173/' });

  it('trusts only our own top-level renderer frame', () => {
    expect(isTrustedSender(top(`${APP_ORIGIN}/index.html`), packaged)).toBe(true);
    expect(isTrustedSender(top(`${APP_ORIGIN}/index.html#/reader/x`), packaged)).toBe(true);
    // an iframe inside our page, another origin, file://, a destroyed frame, look-alike hosts
    expect(isTrustedSender({ senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: {} } }, packaged)).toBe(false);
    expect(isTrustedSender(top('https://evil.example/'), packaged)).toBe(false);
    expect(isTrustedSender(top('file:///home/u/index.html'), packaged)).toBe(false);
    expect(isTrustedSender({ senderFrame: null }, packaged)).toBe(false);
    expect(isTrustedSender(top('app://gridcode.evil/index.html'), packaged)).toBe(false);
    expect(isTrustedSender(top('app://evil@gridcode/index.html'), packaged)).toBe(true); // same host: userinfo does not change the origin
    expect(isTrustedSender(top('not a url'), packaged)).toBe(false);
  });

  it('trusts the dev server only in an unpackaged app, and loads it only then', () => {
    expect(isTrustedSender(top('http://localhost:5173/'), packaged)).toBe(false);
    expect(isTrustedSender(top('http://localhost:5173/'), dev)).toBe(true);
    expect(isTrustedSender(top('http://localhost:5174/'), dev)).toBe(false);
    expect(windowUrl({ isPackaged: true, devUrl: 'http://localhost:5173/' })).toBe(`${APP_ORIGIN}/index.html`);
    expect(windowUrl({ isPackaged: false, devUrl: 'http://localhost:5173/' })).toBe('http://localhost:5173/');
    expect(windowUrl({ isPackaged: false })).toBe(`${APP_ORIGIN}/index.html`);
  });

  it('guarded handlers run for our frame and refuse others without running', () => {
    let calls = 0;
    const handler = guardHandler(packaged, (_e: { senderFrame: { url: string; parent: unknown } | null }, n: number) => {
      calls++;
      return n * 2;
    });
    expect(handler(top(`${APP_ORIGIN}/index.html`), 21)).toBe(42);
    expect(() => handler(top('https://evil.example/'), 1)).toThrow(UntrustedSenderError);
    expect(calls).toBe(1);
    const listener = guardListener(packaged, (_e: { senderFrame: { url: string; parent: unknown } | null }) => void calls++);
    listener(top('https://evil.example/'));
    listener(top(`${APP_ORIGIN}/`));
    expect(calls).toBe(2);
  });
});

describe('the app:// renderer protocol', () => {
  const dir = tempDir('gridcode-renderer-');
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head></head><body>app</body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'main.js'), 'console.log(1)');
  fs.writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'SECRET');

  it('serves renderer files with the CSP header (frame-ancestors there, not in a meta tag)', async () => {
    const res = await serveRendererRequest(`${APP_ORIGIN}/assets/main.js`, dir);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const index = await serveRendererRequest(`${APP_ORIGIN}/`, dir);
    expect(await index.text()).toContain('app');
    const meta = fs.readFileSync(path.resolve(__dirname, '../../../src/renderer/index.html'), 'utf8');
    expect(meta).not.toMatch(/frame-ancestors/);
  });

  it('never serves files outside the renderer folder or for another host', async () => {
    for (const url of [`${APP_ORIGIN}/../secret.txt`, `${APP_ORIGIN}/%2e%2e/secret.txt`, `${APP_ORIGIN}/%2e%2e%2fsecret.txt`, 'app://other/index.html', `${APP_ORIGIN}/%E0%A4%A`, `${APP_ORIGIN}/missing.js`]) {
      expect(rendererFile(url, dir), url).toBeNull();
      const res = await serveRendererRequest(url, dir);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('SECRET');
    }
  });
});

/** A stand-in keychain: reversible but not plain text, and switchable off like a locked keyring. */
function fakeCipher(): KeyCipher & { available: boolean } {
  return {
    available: true,
    isEncryptionAvailable() {
      return this.available;
    },
    encryptString: (plain) => Buffer.from(Buffer.from(plain, "utf8").map((b) => b ^ 0x5a)),
    decryptString: (enc) => Buffer.from(enc.map((b) => b ^ 0x5a)).toString('utf8'),
  };
}

describe('the LLM key kept by main (safeStorage)', () => {
  it('persists the key with the base URL it was entered for; after a restart it still goes only there', async () => {
    const dir = tempDir('gridcode-userdata-');
    dirs.push(dir);
    const file = path.join(dir, 'dashscope-key.bin');
    const cipher = fakeCipher();
    const key = 'sk-secret-0123456789';

    const first = tempContext();
    const store = createKeyStore(file, cipher);
    // main's wiring: whatever changes the settings (Settings' key field, llm.configure over IPC) is saved
    const unsubscribe = onLlmSettingsChanged((c, settings) => c === first && store.save(settings));
    try {
      await invokeOperation(first, 'llm.configure', { base_url: 'https://gateway.example.com/v1', api_key: key });
    } finally {
      unsubscribe();
    }
    expect(fs.readFileSync(file).toString('utf8')).not.toContain(key);
    await first.cleanup();

    // restart: the stored settings come back bound to their endpoint
    const second = tempContext();
    const loaded = createKeyStore(file, cipher).load();
    expect(loaded).toMatchObject({ apiKey: key, keyBaseUrl: 'https://gateway.example.com/v1', baseUrl: 'https://gateway.example.com/v1' });
    configureLlm(second, loaded!);
    expect(resolveLlmSettings(second)).toMatchObject({ apiKey: key, baseUrl: 'https://gateway.example.com/v1' });
    // the endpoint changed without re-entering the key: nothing is sent
    configureLlm(second, { ...loaded!, baseUrl: 'https://attacker.example/v1' });
    expect(resolveLlmSettings(second)).toMatchObject({ apiKey: null, withheld: 'endpoint_changed' });
    await second.cleanup();
  });

  it('reads the first format (a bare key), treats an unavailable keychain as no key, and removes the file when cleared', () => {
    const dir = tempDir('gridcode-userdata-');
    dirs.push(dir);
    const file = path.join(dir, 'dashscope-key.bin');
    const cipher = fakeCipher();
    fs.writeFileSync(file, cipher.encryptString('sk-old-format-123'));
    expect(createKeyStore(file, cipher).load()).toEqual({ apiKey: 'sk-old-format-123' });
    cipher.available = false;
    expect(createKeyStore(file, cipher).load()).toBeNull();
    expect(() => createKeyStore(file, cipher).save({ apiKey: 'sk-new-123456' })).toThrow(/密钥库不可用/);
    cipher.available = true;
    createKeyStore(file, cipher).save({ apiKey: null, baseUrl: null });
    expect(fs.existsSync(file)).toBe(false);
  });
});

