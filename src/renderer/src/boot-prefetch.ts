/** Imported first by main.tsx: the first screen's API calls leave before React is evaluated (data/prefetch.ts). */
import { prefetchForRoute } from './data/prefetch';

prefetchForRoute(location.hash);
