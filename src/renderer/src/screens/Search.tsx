import { EmptyState, ScreenHeader } from '../components/common';

export function SearchScreen(_props: Record<string, unknown>) {
  return (
    <div className="screen">
      <ScreenHeader title="Search" />
      <EmptyState title="即将推出" />
    </div>
  );
}
