/** Grey images (one byte per pixel, 0 = black) and the few operations OCR needs on them. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** RGBA (canvas ImageData) -> grey, BT.601 weights; transparent pixels count as white paper. */
export function greyFromRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < data.length; i += 4, j++) {
    const a = rgba[i + 3] / 255;
    const v = (rgba[i] * 299 + rgba[i + 1] * 587 + rgba[i + 2] * 114) / 1000;
    data[j] = Math.round(v * a + 255 * (1 - a));
  }
  return { data, width, height };
}

/**
 * Resize. Shrinking by more than 1.5x averages the source pixels each target pixel covers (area
 * filter, keeps thin strokes); otherwise bilinear.
 */
export function resize(src: GreyImage, width: number, height: number): GreyImage {
  width = Math.max(1, Math.round(width));
  height = Math.max(1, Math.round(height));
  const out = new Uint8Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  if (sx > 1.5 || sy > 1.5) {
    for (let y = 0; y < height; y++) {
      const y0 = Math.floor(y * sy);
      const y1 = Math.max(y0 + 1, Math.min(src.height, Math.floor((y + 1) * sy)));
      for (let x = 0; x < width; x++) {
        const x0 = Math.floor(x * sx);
        const x1 = Math.max(x0 + 1, Math.min(src.width, Math.floor((x + 1) * sx)));
        let sum = 0;
        for (let yy = y0; yy < y1; yy++) {
          const row = yy * src.width;
          for (let xx = x0; xx < x1; xx++) sum += src.data[row + xx];
        }
        out[y * width + x] = sum / ((y1 - y0) * (x1 - x0));
      }
    }
    return { data: out, width, height };
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(src.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(src.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(src.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(src.width - 1, x0 + 1);
      const wx = fx - x0;
      const a = src.data[y0 * src.width + x0] * (1 - wx) + src.data[y0 * src.width + x1] * wx;
      const b = src.data[y1 * src.width + x0] * (1 - wx) + src.data[y1 * src.width + x1] * wx;
      out[y * width + x] = a * (1 - wy) + b * wy;
    }
  }
  return { data: out, width, height };
}

/** A rectangle of the image (clamped to it). */
export function crop(src: GreyImage, x0: number, y0: number, x1: number, y1: number): GreyImage {
  x0 = Math.max(0, Math.floor(x0));
  y0 = Math.max(0, Math.floor(y0));
  x1 = Math.min(src.width, Math.ceil(x1));
  y1 = Math.min(src.height, Math.ceil(y1));
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height && y0 + y < src.height; y++) {
    const from = (y0 + y) * src.width + x0;
    data.set(src.data.subarray(from, from + Math.min(width, src.width - x0)), y * width);
  }
  return { data, width, height };
}

/** Rotates about the centre by `degrees` (counter-clockwise on screen), same size, white outside. */
export function rotate(src: GreyImage, degrees: number): GreyImage {
  const t = (degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const { width, height } = src;
  const cx = width / 2;
  const cy = height / 2;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      // inverse mapping: where this output pixel comes from
      const fx = cos * dx - sin * dy + cx;
      const fy = sin * dx + cos * dy + cy;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) {
        out[y * width + x] = 255;
        continue;
      }
      const wx = fx - x0;
      const wy = fy - y0;
      const i = y0 * width + x0;
      const a = src.data[i] * (1 - wx) + src.data[i + 1] * wx;
      const b = src.data[i + width] * (1 - wx) + src.data[i + width + 1] * wx;
      out[y * width + x] = a * (1 - wy) + b * wy;
    }
  }
  return { data: out, width, height };
}

/** Otsu's threshold of the grey histogram (ink below, paper above). */
export function otsuThreshold(img: GreyImage): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < img.data.length; i++) hist[img.data[i]]++;
  const total = img.data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}
