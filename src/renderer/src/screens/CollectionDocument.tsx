import { useEffect, useRef } from 'react';
import { api } from '../api/client';
import { ErrorBox, ScreenHeader, Spinner, useAsync } from '../components/common';

/**
 * A collection document opened from a citation (#/collections/doc/<collection>/<docId>?section=N):
 * the whole document as its sections (articles with their chapter path, or headed blocks), the
 * cited section scrolled into view and marked. Collection documents are Markdown/TXT files with no
 * pages, so sections are the unit a citation points at; statutes that are also in the regulation
 * library open in the reader instead (at the article's page).
 */
export function CollectionDocument({ collection, docId, section, onBack }: { collection: string; docId: number; section: number | null; onBack: () => void }) {
  const doc = useAsync(() => api('collections.document', { collection, doc_id: docId }), [collection, docId]);
  const cited = useRef<HTMLElement>(null);
  useEffect(() => {
    cited.current?.scrollIntoView({ block: 'center' });
    cited.current?.focus({ preventScroll: true });
  }, [doc.data, section]);

  const back = (
    <button type="button" className="btn" onClick={onBack}>
      ← 返回问答
    </button>
  );
  if (doc.error) {
    return (
      <div className="screen">
        <ScreenHeader title="文集文档">{back}</ScreenHeader>
        <ErrorBox error={doc.error} onRetry={doc.reload} />
      </div>
    );
  }
  if (!doc.data) return <Spinner label="正在打开文档…" />;
  const d = doc.data;
  const citedLabel = d.sections.find((s) => s.index === section)?.label;
  let lastPath = '';
  return (
    <div className="screen">
      <ScreenHeader title={`《${d.title}》`} subtitle={`文集「${d.collection}」 · ${d.rel_path}${citedLabel ? ` · 引用：${citedLabel}` : ''}`}>
        {back}
      </ScreenHeader>
      <article className="card coll-doc" aria-label="文档内容">
        {d.sections.map((s) => {
          const heading = s.path && s.path !== lastPath ? s.path : null;
          lastPath = s.path || lastPath;
          const isCited = s.index === section;
          return (
            <div key={s.index}>
              {heading ? <h3 className="coll-doc-path">{heading}</h3> : null}
              <section
                ref={isCited ? cited : undefined}
                tabIndex={isCited ? -1 : undefined}
                className={`coll-doc-section${isCited ? ' cited' : ''}`}
                aria-label={s.label}
                aria-current={isCited ? 'location' : undefined}
              >
                <b>{s.label}</b>
                <div className="pre-wrap">{s.text.startsWith(s.label) ? s.text.slice(s.label.length).trim() : s.text}</div>
              </section>
            </div>
          );
        })}
      </article>
    </div>
  );
}
