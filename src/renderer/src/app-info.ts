import { createContext, useContext } from 'react';
import type { ApiOutput } from './api/client';

/** app.info as the shell loaded it, shared by the sidebar (App) and the settings screen. */
export type AppInfo = ApiOutput<'app.info'>;

export interface AppInfoState {
  info: AppInfo | undefined;
  error: unknown;
  refresh: () => void;
}

export const AppInfoContext = createContext<AppInfoState>({ info: undefined, error: undefined, refresh: () => {} });

export function useAppInfo(): AppInfoState {
  return useContext(AppInfoContext);
}
