/** PDF transformation matrices [a b c d e f] (row-vector convention, as pdf.js operator lists carry them). */
export type Matrix = [number, number, number, number, number, number];
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The `cm` operator: the new current transformation is `t` applied first, then the current one. */
export const concatTransform = (ctm: Matrix, t: Matrix): Matrix => [
  t[0] * ctm[0] + t[1] * ctm[2],
  t[0] * ctm[1] + t[1] * ctm[3],
  t[2] * ctm[0] + t[3] * ctm[2],
  t[2] * ctm[1] + t[3] * ctm[3],
  t[4] * ctm[0] + t[5] * ctm[2] + ctm[4],
  t[4] * ctm[1] + t[5] * ctm[3] + ctm[5],
];

/** A point in user space to device space. */
export const applyTransform = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
