import { EmptyState, ScreenHeader } from '../components/common';

export function ReaderScreen(_props: Record<string, unknown>) {
  return (
    <div className="screen">
      <ScreenHeader title="Reader" />
      <EmptyState title="即将推出" />
    </div>
  );
}
