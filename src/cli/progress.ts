import type { SingleBar } from 'cli-progress';
import type { ProgressEvent, ProgressSink } from '../core/common/operation';
import { lazyModule } from '../core/common/lazy';

const cliProgress = lazyModule<typeof import('cli-progress')>('cli-progress');

/**
 * Progress on stderr so stdout stays clean for --json. A live bar on a terminal;
 * throttled plain lines otherwise (CI logs, pipes).
 */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): { sink: ProgressSink; stop: () => void } {
  if (stream.isTTY) {
    let bar: SingleBar | undefined;
    let stage = '';
    return {
      sink(ev: ProgressEvent) {
        if (!bar || stage !== ev.stage) {
          bar?.stop();
          stage = ev.stage;
          bar = new (cliProgress().SingleBar)(
            { format: `${ev.stage} [{bar}] {value}/{total} {item} {message}`, stream, hideCursor: true, clearOnComplete: false },
            cliProgress().Presets.shades_classic,
          );
          bar.start(Math.max(ev.total, 1), ev.done, { item: ev.item ?? '', message: ev.message ?? '' });
        }
        bar.setTotal(Math.max(ev.total, 1));
        bar.update(ev.done, { item: ev.item ?? '', message: ev.message ?? '' });
      },
      stop() {
        bar?.stop();
      },
    };
  }
  let last = 0;
  let lastStage = '';
  return {
    sink(ev: ProgressEvent) {
      const now = Date.now();
      const finished = ev.total > 0 && ev.done >= ev.total;
      if (ev.stage !== lastStage || finished || now - last > 1000) {
        stream.write(`${ev.stage} ${ev.done}/${ev.total}${ev.item ? ' ' + ev.item : ''}${ev.message ? ' ' + ev.message : ''}\n`);
        last = now;
        lastStage = ev.stage;
      }
    },
    stop() {},
  };
}
