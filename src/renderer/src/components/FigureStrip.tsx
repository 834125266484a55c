/**
 * The figures printed on a page (图3-1 …): caption, and the cropped picture on request (the image is
 * cut from the original page by the engine, so it works for scans and printed PDFs alike).
 */
import { useState } from 'react';
import { api } from '../api/client';
import { toApiError } from '../api/errors';

export interface FigureSummary {
  figure_id: string;
  caption: string;
  page_num: number;
  citing: { text: string }[];
}

export function FigureStrip({ regId, figures }: { regId: string; figures: FigureSummary[] }) {
  const [open, setOpen] = useState<Record<string, { src?: string; error?: string }>>({});
  if (!figures.length) return null;
  const show = (id: string) => {
    if (open[id]) return setOpen(({ [id]: _, ...rest }) => rest);
    setOpen((o) => ({ ...o, [id]: {} }));
    api('regulations.figure', { reg_id: regId, figure_id: id }).then(
      (f) => setOpen((o) => ({ ...o, [id]: { src: `data:image/png;base64,${f.image_png_base64}` } })),
      (e: unknown) => setOpen((o) => ({ ...o, [id]: { error: toApiError(e).message } })),
    );
  };
  return (
    <section className="figure-strip" aria-label="本页的图">
      {figures.map((f) => (
        <figure key={f.figure_id} className="figure-item">
          <figcaption>
            <strong>{f.figure_id}</strong> {f.caption}
            {f.citing.length ? <span className="muted">（正文引用 {f.citing.length} 处）</span> : null}
            <button type="button" className="btn small" aria-expanded={!!open[f.figure_id]} onClick={() => show(f.figure_id)}>
              {open[f.figure_id] ? '收起图片' : '查看图片'}
            </button>
          </figcaption>
          {open[f.figure_id]?.src ? <img src={open[f.figure_id].src} alt={`${f.figure_id} ${f.caption}`} /> : null}
          {open[f.figure_id]?.error ? <p role="alert">{open[f.figure_id].error}</p> : null}
        </figure>
      ))}
    </section>
  );
}
