import { lazyModule } from '../common/lazy';

const openCC = lazyModule<typeof import('opencc-js/t2cn')>('opencc-js/t2cn');

/**
 * Traditional Chinese (Taiwan, Hong Kong) -> simplified, with Taiwan phrasing (開啟 -> 打开,
 * 清淨機 -> 净化器) through OpenCC's dictionaries. Applied to utterances and to device names
 * alike, so a home written in either script matches commands in either.
 */

type Convert = (s: string) => string;
let convert: Convert | undefined;
/** Built on first use: the dictionaries are large and most commands never need them. */
function converter(): Convert {
  if (!convert) {
    const converters = openCC() as unknown as { Converter: (o: { from: string; to: string }) => Convert };
    const fromTaiwan = converters.Converter({ from: 'twp', to: 'cn' });
    const fromHongKong = converters.Converter({ from: 'hk', to: 'cn' });
    convert = (s) => fromHongKong(fromTaiwan(s));
  }
  return convert;
}

// quick test: does the text contain a character a simplified text would not?
const cache = new Map<string, string>();

export function toSimplified(text: string): string {
  if (!text) return text;
  let v = cache.get(text);
  if (v === undefined) {
    v = converter()(text);
    if (cache.size > 50_000) cache.clear();
    cache.set(text, v);
  }
  return v;
}
