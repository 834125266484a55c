/**
 * Split view: the search a person came from, beside the page they are reading (wide windows).
 * Each hit opens in place (the reader's history entry is replaced, so Back still returns to the
 * full result list); the hit being read is marked.
 */
import { navigate } from '../router';
import { groupHits, hitPages, openHit, resultCount, searchSession, type SearchOutput } from '../data/search-session';

export function SearchResultsPane({ result, current, onClose }: { result: SearchOutput; current: string | null; onClose: () => void }) {
  const groups = groupHits(result.results);
  return (
    <aside className="reader-results" aria-label="检索结果（并排）">
      <div className="reader-results-head">
        <div className="grow small">
          「{result.query}」 <span className="muted">{resultCount(result.results.length, result.total)}</span>
        </div>
        <button type="button" className="btn small ghost" onClick={() => navigate('search', [], { q: result.query })} title="回到完整的检索结果">
          全部结果
        </button>
        <button type="button" className="btn small ghost" onClick={onClose} aria-label="收起检索结果栏" title="收起检索结果栏">
          收起
        </button>
      </div>
      {groups.map((g) => (
        <section key={g.reg_id} aria-label={g.title}>
          <h2 className="reader-results-reg small">{g.title}</h2>
          <ul>
            {g.hits.map((h) => (
              <li key={h.unit_id}>
                <button
                  type="button"
                  className={`reader-results-hit${current === String(h.unit_id) ? ' current' : ''}`}
                  aria-current={current === String(h.unit_id) ? 'true' : undefined}
                  data-unit={String(h.unit_id)}
                  onClick={() => openHit(h, result.query, { replace: true })}
                >
                  <span className="label">{h.article ?? h.section.split('>').pop()?.trim() ?? hitPages(h)}</span>
                  <span className="muted small"> {hitPages(h)}</span>
                  <span className="reader-results-snip small">{h.snippet.replace(/[|>#*\s]+/g, ' ').trim().slice(0, 60)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </aside>
  );
}

/** The stored search, when the reader was opened from it (same query). */
export function searchFor(query: string | null): SearchOutput | null {
  const r = searchSession.result;
  return query && r && r.query === query ? r : null;
}
