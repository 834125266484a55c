import { otsuThreshold, type GreyImage } from './image';

/**
 * The angle (degrees) text lines slope by, down to the right positive; `rotate(img, angle)` levels
 * them. Projection profiles: ink rows are sharpest (largest sum of squared row counts) when projected
 * along the lines. Works on a small copy of the page; scanners skew by a degree or two.
 */
export function estimateSkew(img: GreyImage, maxDegrees = 3): number {
  const threshold = Math.min(otsuThreshold(img), 200);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.data[y * img.width + x] < threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  // a blank page or a photo (mostly ink) has no lines to level
  if (xs.length < 200 || xs.length > img.width * img.height * 0.5) return 0;
  const cx = img.width / 2;
  const bins = new Float64Array(img.height * 2 + 8);
  const score = (deg: number): number => {
    const tan = Math.tan((deg * Math.PI) / 180);
    bins.fill(0);
    const offset = img.height / 2 + 4;
    for (let i = 0; i < xs.length; i++) {
      const b = Math.round(ys[i] - (xs[i] - cx) * tan + offset);
      if (b >= 0 && b < bins.length) bins[b]++;
    }
    let s = 0;
    for (let i = 0; i < bins.length; i++) s += bins[i] * bins[i];
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let d = -maxDegrees; d <= maxDegrees + 1e-9; d += 0.2) {
    const s = score(d);
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
  }
  const coarse = best;
  for (let d = coarse - 0.2; d <= coarse + 0.2 + 1e-9; d += 0.04) {
    const s = score(d);
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
  }
  return Math.round(best * 100) / 100;
}
