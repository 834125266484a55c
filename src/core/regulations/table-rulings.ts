/**
 * Ruling lines of a printed page, read from its drawing operators (pdf.js operator list): stroked lines
 * and rectangle edges, and thin filled rectangles (Word and WPS draw cell borders that way), in PDF
 * points with y growing upwards. Curves, shading and large fills are not rulings. table-grid.ts turns
 * them into cell grids.
 */

import { IDENTITY, applyTransform, concatTransform, type Matrix } from '../common/pdf-matrix';

/** One axis-aligned ruling: horizontal (y0 = y1) or vertical (x0 = x1). */
export interface Ruling {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}


/** pdf.js path data codes (DrawOPS) */
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;

/** A filled rectangle at most this thick (points) is a ruling drawn as a fill. */
const THIN_FILL = 2.5;
/** End points this close (points) count as on one horizontal / vertical line. */
const AXIS_TOL = 0.8;

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/** The page's rulings from its operator list; `ops` is pdf.js's OPS table. */
export function rulingsFromOperators(list: OperatorList, ops: Record<string, number>): Ruling[] {
  const out: Ruling[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  const stroke = new Set([ops.stroke, ops.closeStroke, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const fill = new Set([ops.fill, ops.eoFill]);
  const push = (a: [number, number], b: [number, number]) => {
    if (Math.abs(a[1] - b[1]) <= AXIS_TOL && Math.abs(a[0] - b[0]) > AXIS_TOL) {
      const y = (a[1] + b[1]) / 2;
      out.push({ x0: Math.min(a[0], b[0]), y0: y, x1: Math.max(a[0], b[0]), y1: y });
    } else if (Math.abs(a[0] - b[0]) <= AXIS_TOL && Math.abs(a[1] - b[1]) > AXIS_TOL) {
      const x = (a[0] + b[0]) / 2;
      out.push({ x0: x, y0: Math.min(a[1], b[1]), x1: x, y1: Math.max(a[1], b[1]) });
    }
  };
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? IDENTITY;
    else if (fn === ops.transform && args) ctm = concatTransform(ctm, args as Matrix);
    else if (fn === ops.paintFormXObjectBegin && args) {
      stack.push(ctm);
      const m = args[0] as number[] | null;
      if (m && m.length === 6) ctm = concatTransform(ctm, m as Matrix);
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? IDENTITY;
    else if (fn === ops.constructPath && args) {
      const paint = args[0] as number;
      const isStroke = stroke.has(paint);
      if (!isStroke && !fill.has(paint)) continue;
      const data = (args[1] as ArrayLike<number>[] | null)?.[0];
      if (!data) continue;
      // sub-paths as point lists (curves end a straight run: they are never rulings)
      const paths: [number, number][][] = [];
      let cur: [number, number][] = [];
      for (let k = 0; k < data.length; ) {
        const code = data[k++];
        if (code === MOVE) {
          if (cur.length) paths.push(cur);
          cur = [applyTransform(ctm, data[k++], data[k++])];
        } else if (code === LINE) cur.push(applyTransform(ctm, data[k++], data[k++]));
        else if (code === CURVE) {
          k += 6;
          if (cur.length) paths.push(cur);
          cur = [];
        } else if (code === QUAD) {
          k += 4;
          if (cur.length) paths.push(cur);
          cur = [];
        } else if (code === CLOSE) {
          if (cur.length > 1) cur.push(cur[0]);
        } else break;
      }
      if (cur.length) paths.push(cur);
      for (const pts of paths) {
        if (isStroke) {
          for (let k = 1; k < pts.length; k++) push(pts[k - 1], pts[k]);
          continue;
        }
        // a thin filled rectangle is a line along its long side
        const xs = pts.map((p) => p[0]);
        const ys = pts.map((p) => p[1]);
        const x0 = Math.min(...xs);
        const x1 = Math.max(...xs);
        const y0 = Math.min(...ys);
        const y1 = Math.max(...ys);
        const axisAligned = pts.every((p, k) => k === 0 || Math.abs(p[0] - pts[k - 1][0]) <= AXIS_TOL || Math.abs(p[1] - pts[k - 1][1]) <= AXIS_TOL);
        if (!axisAligned || pts.length < 4) continue;
        if (y1 - y0 <= THIN_FILL && x1 - x0 > THIN_FILL * 2) out.push({ x0, y0: (y0 + y1) / 2, x1, y1: (y0 + y1) / 2 });
        else if (x1 - x0 <= THIN_FILL && y1 - y0 > THIN_FILL * 2) out.push({ x0: (x0 + x1) / 2, y0, x1: (x0 + x1) / 2, y1 });
      }
    }
  }
  return out;
}
