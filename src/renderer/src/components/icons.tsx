/** Line icons drawn inline (no emoji: Linux installs often lack an emoji font). */
const PATHS: Record<string, string> = {
  library: 'M4 4h4v16H4zM10 4h4v16h-4zM16.5 4.5l3.8 1-3.9 14.6-3.8-1z',
  search: 'M10.5 4a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zM15.5 15.5 20 20',
  devices: 'M4 11 12 4l8 7M6 9.5V20h12V9.5M10 20v-5h4v5',
  collections: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
  import: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M4 17v3h16v-3',
  settings:
    'M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM12 3v3M12 18v3M3 12h3M18 12h3M5.6 5.6l2.1 2.1M16.3 16.3l2.1 2.1M5.6 18.4l2.1-2.1M16.3 7.7l2.1-2.1',
  bolt: 'M13 3 5 14h6l-1 7 8-11h-6z',
};

export function Icon({ name, size = 18 }: { name: keyof typeof PATHS | string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.7} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name] ?? ''} />
    </svg>
  );
}
