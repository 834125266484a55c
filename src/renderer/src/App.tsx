import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from './api/client';
import { AppInfoContext, type AppInfo } from './app-info';
import { navigate, useRoute, type ScreenId } from './router';
import { ErrorBox, Spinner } from './components/common';
import { Icon } from './components/icons';
import { LibraryScreen } from './screens/Library';
import { takePrefetched } from './data/prefetch';
import { useRememberedFlag } from './data/remembered';

// Heavier screens load on first visit so the first paint stays small.
const ReaderScreen = lazy(() => import('./screens/Reader').then((m) => ({ default: m.ReaderScreen })));
const CompareScreen = lazy(() => import('./screens/Compare').then((m) => ({ default: m.CompareScreen })));
const SearchScreen = lazy(() => import('./screens/Search').then((m) => ({ default: m.SearchScreen })));
const DevicesScreen = lazy(() => import('./screens/Devices').then((m) => ({ default: m.DevicesScreen })));
const CollectionsScreen = lazy(() => import('./screens/Collections').then((m) => ({ default: m.CollectionsScreen })));
const SettingsScreen = lazy(() => import('./screens/Settings').then((m) => ({ default: m.SettingsScreen })));
const ImportScreen = lazy(() => import('./screens/Import').then((m) => ({ default: m.ImportScreen })));

const NAV: { id: ScreenId; label: string; icon: string; hint?: string }[] = [
  { id: 'library', label: '规程库', icon: 'library' },
  { id: 'search', label: '跨规程搜索', icon: 'search', hint: 'Ctrl+K' },
  { id: 'devices', label: '设备上下文', icon: 'devices' },
  { id: 'collections', label: '文集问答', icon: 'collections' },
  { id: 'import', label: '导入', icon: 'import' },
  { id: 'settings', label: '设置', icon: 'settings' },
];

function navTarget(screen: ScreenId): ScreenId {
  return screen === 'reader' || screen === 'compare' ? 'library' : screen;
}

const NAV_KEY = 'gridcode.sidebar';

export function App() {
  const route = useRoute();
  // a collapsed sidebar (icons only) leaves the reader room on a laptop; remembered
  const [navCollapsed, setNavCollapsed] = useRememberedFlag(NAV_KEY, 'collapsed', 'open', false);
  const toggleNav = () => setNavCollapsed((c) => !c);
  const [info, setInfo] = useState<AppInfo | undefined>(undefined);
  const [infoError, setInfoError] = useState<unknown>(undefined);
  const refresh = useCallback(() => {
    (takePrefetched('app.info') ?? api('app.info', {}, { timeoutMs: 15_000 })).then(
      (i) => {
        setInfo(i);
        setInfoError(undefined);
      },
      (e: unknown) => setInfoError(e),
    );
  }, []);
  useEffect(refresh, [refresh]);

  // Ctrl/Cmd+K: jump to search from anywhere and focus the query box.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        if (route.screen !== 'search') navigate('search');
        window.setTimeout(() => document.getElementById('search-query')?.focus(), 0);
        window.dispatchEvent(new CustomEvent('gridcode:focus-search'));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [route.screen]);

  useEffect(() => {
    const label = route.screen === 'reader' ? '阅读' : route.screen === 'compare' ? '版本对比' : NAV.find((n) => n.id === route.screen)?.label;
    document.title = label ? `${label} · GridCode 规程助手` : 'GridCode 规程助手';
  }, [route.screen]);

  const ctx = useMemo(() => ({ info, error: infoError, refresh }), [info, infoError, refresh]);
  const active = navTarget(route.screen);

  let screen: ReactNode;
  switch (route.screen) {
    case 'library':
      screen = <LibraryScreen />;
      break;
    case 'reader':
      screen = <ReaderScreen regId={route.params[0] ?? ''} query={route.query} />;
      break;
    case 'compare':
      screen = <CompareScreen params={route.params} query={route.query} />;
      break;
    case 'search':
      screen = <SearchScreen query={route.query} />;
      break;
    case 'devices':
      screen = <DevicesScreen />;
      break;
    case 'collections':
      screen = <CollectionsScreen params={route.params} query={route.query} />;
      break;
    case 'import':
      screen = <ImportScreen />;
      break;
    case 'settings':
      screen = <SettingsScreen />;
      break;
  }

  return (
    <AppInfoContext.Provider value={ctx}>
      <div className={`app${navCollapsed ? ' nav-collapsed' : ''}`}>
        <aside className="sidebar">
          <div className="brand">
            <span className="brand-mark">
              <Icon name="bolt" size={24} />
            </span>
            <div>
              <div className="brand-name">GridCode</div>
              <div className="brand-sub">规程助手 · 离线</div>
            </div>
          </div>
          <nav aria-label="主导航" className="nav">
            {NAV.map((n) => (
              <button
                key={n.id}
                type="button"
                className={`nav-item${active === n.id ? ' active' : ''}`}
                aria-current={active === n.id ? 'page' : undefined}
                aria-label={navCollapsed ? n.label : undefined}
                onClick={() => navigate(n.id)}
                title={n.hint ? `${n.label}（${n.hint}）` : n.label}
              >
                <span className="nav-icon">
                  <Icon name={n.icon} />
                </span>
                <span className="nav-label">{n.label}</span>
              </button>
            ))}
          </nav>
          <div className="sidebar-foot">
            {info ? (
              <div className="status-text">
                <div className={`mode-badge ${info.search_mode}`} title={info.search_mode === 'hybrid' ? '关键词 + 语义模型' : '未启用语义模型，按关键词检索'}>
                  {info.search_mode === 'hybrid' ? '混合检索' : '仅关键词检索'}
                </div>
                <div className="muted small">v{info.version}</div>
              </div>
            ) : infoError ? (
              <div className="muted small status-text">服务未连接</div>
            ) : null}
            <button
              type="button"
              className="nav-toggle"
              aria-expanded={!navCollapsed}
              aria-label={navCollapsed ? '展开侧栏' : '收起侧栏'}
              title={navCollapsed ? '展开侧栏' : '收起侧栏'}
              onClick={toggleNav}
            >
              <span aria-hidden="true">{navCollapsed ? '»' : '«'}</span>
              {navCollapsed ? null : <span>收起侧栏</span>}
            </button>
          </div>
        </aside>
        <main className="main" id="main">
          {infoError && !info ? <ErrorBox title="无法连接到 GridCode 服务" error={infoError} onRetry={refresh} /> : null}
          <Suspense fallback={<Spinner />}>{screen}</Suspense>
        </main>
      </div>
    </AppInfoContext.Provider>
  );
}
