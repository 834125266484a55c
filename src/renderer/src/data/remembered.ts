import { useState } from 'react';

/** Remember a small UI choice; with storage disabled it simply lasts for the session. */
export function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage disabled: remembering is a convenience */
  }
}

function recall(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * A two-state choice (sidebar collapsed, TOC open, YAML shown…) remembered across visits under `key`,
 * stored as the words `on` / `off`; anything else stored means `byDefault`.
 */
export function useRememberedFlag(key: string, on: string, off: string, byDefault: boolean) {
  const [value, setValue] = useState(() => {
    const stored = recall(key);
    return stored === on ? true : stored === off ? false : byDefault;
  });
  const set = (next: boolean | ((current: boolean) => boolean)) =>
    setValue((current) => {
      const v = typeof next === 'function' ? next(current) : next;
      remember(key, v ? on : off);
      return v;
    });
  return [value, set] as const;
}
