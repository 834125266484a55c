import { EmptyState, ScreenHeader } from '../components/common';

export function DevicesScreen(_props: Record<string, unknown>) {
  return (
    <div className="screen">
      <ScreenHeader title="Devices" />
      <EmptyState title="即将推出" />
    </div>
  );
}
