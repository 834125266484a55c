/**
 * The DashScope settings the user enters in the desktop app, kept by main only: encrypted with the
 * OS keychain (Electron's safeStorage, passed in so this is tested without Electron) in one file.
 * The key is stored together with the base URL it was entered for, so after a restart it is still
 * sent only there (core's resolveLlmSettings enforces the binding).
 */
import fs from 'node:fs';
import type { LlmSettings } from '../core/llm/client';

/** What the keychain offers (a subset of Electron's safeStorage). */
export interface KeyCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

interface StoredSettings {
  api_key: string | null;
  key_base_url: string | null;
  base_url: string | null;
}

export interface KeyStore {
  /** The stored settings, or null (nothing stored, keychain unavailable or changed: the user enters the key again). */
  load(): LlmSettings | null;
  /** Stores the settings (key + the URL it is bound to + the endpoint); no key and no endpoint removes the file. */
  save(settings: LlmSettings): void;
}

export function createKeyStore(file: string, cipher: KeyCipher): KeyStore {
  return {
    load() {
      try {
        if (!fs.existsSync(file) || !cipher.isEncryptionAvailable()) return null;
        const plain = cipher.decryptString(fs.readFileSync(file));
        let stored: Partial<StoredSettings> | null = null;
        try {
          const parsed: unknown = JSON.parse(plain);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Partial<StoredSettings>;
        } catch {
          // the first format: the bare key, entered for the default endpoint
        }
        if (!stored) return { apiKey: plain.trim() || null };
        const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
        return { apiKey: text(stored.api_key), keyBaseUrl: text(stored.key_base_url), baseUrl: text(stored.base_url) };
      } catch {
        return null;
      }
    },
    save(settings) {
      const stored: StoredSettings = {
        api_key: settings.apiKey?.trim() || null,
        key_base_url: settings.apiKey?.trim() ? settings.keyBaseUrl?.trim() || null : null,
        base_url: settings.baseUrl?.trim() || null,
      };
      if (!stored.api_key && !stored.base_url) {
        fs.rmSync(file, { force: true });
        return;
      }
      if (!cipher.isEncryptionAvailable()) throw new Error('系统密钥库不可用，无法安全保存密钥');
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, cipher.encryptString(JSON.stringify(stored)), { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
  };
}
