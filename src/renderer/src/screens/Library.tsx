import { EmptyState, ScreenHeader } from '../components/common';

export function LibraryScreen() {
  return (
    <div className="screen">
      <ScreenHeader title="规程库" />
      <EmptyState title="规程库为空">规程引擎尚未就绪。</EmptyState>
    </div>
  );
}
