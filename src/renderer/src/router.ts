/**
 * Hash routes (#/reader/<reg>?page=3&hl=...) so a search hit can open the reader at a page,
 * back/forward work, and a reload returns to the same place — no server routing needed.
 */
import { useEffect, useState } from 'react';

export type ScreenId = 'library' | 'reader' | 'compare' | 'search' | 'devices' | 'collections' | 'import' | 'settings';

export interface Route {
  screen: ScreenId;
  /** path segments after the screen name */
  params: string[];
  query: URLSearchParams;
}

const SCREENS: ScreenId[] = ['library', 'reader', 'compare', 'search', 'devices', 'collections', 'import', 'settings'];

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [pathPart, queryPart = ''] = raw.split('?');
  const segments = pathPart.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  const screen = (SCREENS as string[]).includes(segments[0] ?? '') ? (segments[0] as ScreenId) : 'library';
  return { screen, params: segments.slice(1), query: new URLSearchParams(queryPart) };
}

export function buildHash(screen: ScreenId, params: string[] = [], query?: Record<string, string | number | undefined>): string {
  const path = [screen, ...params.map((p) => encodeURIComponent(p))].join('/');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

export function navigate(screen: ScreenId, params: string[] = [], query?: Record<string, string | number | undefined>, replace = false): void {
  const hash = buildHash(screen, params, query);
  if (replace) history.replaceState(null, '', hash);
  else if (location.hash !== hash) location.hash = hash;
  if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
