/** App info (version, data folder, search mode) shared by the shell and the settings screen. */
import { createContext, useContext } from 'react';
import type { ApiOutput } from './api/client';

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
