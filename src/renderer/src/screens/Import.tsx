import { EmptyState, ScreenHeader } from '../components/common';

export function ImportScreen(_props: Record<string, unknown>) {
  return (
    <div className="screen">
      <ScreenHeader title="Import" />
      <EmptyState title="即将推出" />
    </div>
  );
}
