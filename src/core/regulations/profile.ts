import type { Db } from '../store/db';

/** The profile smart selection searches: title, and as text description, keywords, scope, TOC headings. */
export function regulationProfile(db: Db, regId: string): { title: string; text: string } | null {
  const reg = db.prepare('SELECT title, description, keywords, scope, extra FROM regulations WHERE reg_id = ?').get(regId) as
    | { title: string; description: string | null; keywords: string; scope: string | null; extra: string }
    | undefined;
  if (!reg) return null;
  const toc = (db.prepare('SELECT title FROM reg_toc WHERE reg_id = ? ORDER BY ord').all(regId) as { title: string }[]).map((r) => r.title);
  let keywords: string[] = [];
  try {
    keywords = JSON.parse(reg.keywords) as string[];
  } catch {
    keywords = [];
  }
  let generated: string[] = [];
  try {
    generated = (JSON.parse(reg.extra) as { generated_keywords?: string[] }).generated_keywords ?? [];
  } catch {
    generated = [];
  }
  // curated keywords repeated: they are the topic words a person chose, so they outweigh TOC noise
  const curated = keywords.filter((k) => !generated.includes(k));
  const text = [reg.description ?? '', curated.join(' '), curated.join(' '), generated.join(' '), reg.scope ?? '', toc.join('\n')].join('\n');
  return { title: reg.title, text };
}
