import { EmptyState, ScreenHeader } from '../components/common';

export function CollectionsScreen(_props: Record<string, unknown>) {
  return (
    <div className="screen">
      <ScreenHeader title="Collections" />
      <EmptyState title="即将推出" />
    </div>
  );
}
