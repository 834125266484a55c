/**
 * Device-context retrieval latency on a generated 1,000-device home, no LLM and no model:
 * p50/p95 per utterance (target p50 <= 2 ms) and the rule-parser-only time.
 */
import { normalizeHome } from '../src/core/devices/home';
import { lintHome } from '../src/core/devices/lint';
import { indexHome } from '../src/core/devices/index';
import { parseRules } from '../src/core/devices/parser';
import { retrieve } from '../src/core/devices/retrieve';
import { emptyState, type DeviceInput } from '../src/core/devices/types';

const ROOMS = ['客厅', '卧室', '儿童房', '书房', '厨房', '餐厅', '卫生间', '阳台', '玄关', '车库', '客房', '主卧', '次卧', '衣帽间', '影音室', '健身房', '茶室', '洗衣房', '储物间', '露台'];
const KINDS: [string, string, string[]][] = [
  ['light', '灯', ['打开设备', '关闭设备', '调亮度']],
  ['light', '台灯', ['打开设备', '关闭设备', '调亮度']],
  ['light', '筒灯', ['打开设备', '关闭设备']],
  ['curtain', '窗帘', ['打开窗帘', '关闭窗帘', '调节开合度']],
  ['airConditioner', '空调', ['打开设备', '关闭设备', '调温度', '设置模式']],
  ['plug', '插座', ['打开设备', '关闭设备']],
  ['fan', '风扇', ['打开设备', '关闭设备', '调风速']],
  ['speaker', '音箱', ['打开设备', '关闭设备', '调音量', '播放', '暂停']],
  ['temperatureSensor', '温度传感器', ['读取温度']],
  ['humiditySensor', '湿度传感器', ['读取湿度']],
];
const NICK = ['老伙计', '大白', '小黄', '阿福', '豆豆', '球球', '小叮当', '旺财'];

function generateHome(n: number) {
  const devices: DeviceInput[] = [];
  for (let i = 0; i < n; i++) {
    const room = ROOMS[i % ROOMS.length];
    const [cat, word, cmds] = KINDS[Math.floor(i / ROOMS.length) % KINDS.length];
    const serial = Math.floor(i / (ROOMS.length * KINDS.length)) + 1;
    devices.push({
      id: `dev-${i}`,
      name: i < NICK.length ? NICK[i] : `${room}${word}${serial}`,
      room,
      type: `smartthings:${cat}`,
      category: cat,
      commands: cmds.map((d, k) => ({ id: `c${k}`, description: d })),
      ...(cat.endsWith('Sensor') ? { attributes: { [cat === 'temperatureSensor' ? 'temperature' : 'humidity']: 20 + (i % 10) } } : {}),
    });
  }
  const groups = ROOMS.slice(0, 5).map((r, k) => ({ id: `g-${k}`, name: `${r}灯光`, members: devices.filter((d) => d.room === r && d.category === 'light').map((d) => d.id) }));
  return normalizeHome({ devices, groups, scenes: [{ id: 's-1', name: '回家模式' }, { id: 's-2', name: '观影模式' }] }).home;
}

const UTTERANCES = [
  '打开老伙计', '关闭大柏', '打开客厅的灯', '关闭所有卧室的灯', '打开除卧室以外的灯', '打开台灯', '打开两盏书房的筒灯',
  '打开客厅灯然后关闭卧室空调', '如果室温超过26度就打开客厅空调', '把它关了', '打开观影模式', '关闭厨房插座1', '打开次卧的灯',
  '把阳台的窗帘拉上', '打开全部空调', '暂停影音室音箱1', '打开小黄',
];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export default async function run(): Promise<void> {
  const home = generateHome(1000);
  const t0 = performance.now();
  indexHome(home);
  console.log(`home: ${home.devices.length} devices, ${home.rooms.length} rooms; index build ${(performance.now() - t0).toFixed(1)} ms (once per home)`);
  // warm-up (JIT, pinyin caches)
  for (const u of UTTERANCES) await retrieve(u, home, emptyState());
  const rounds = 30;
  const full: number[] = [];
  const parse: number[] = [];
  const perUtterance = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    const state = emptyState();
    for (const u of UTTERANCES) {
      let t = performance.now();
      parseRules(u, home);
      parse.push(performance.now() - t);
      t = performance.now();
      await retrieve(u, home, state);
      const dt = performance.now() - t;
      full.push(dt);
      perUtterance.set(u, [...(perUtterance.get(u) ?? []), dt]);
    }
  }
  for (const [u, xs] of perUtterance) console.log(`  ${u.padEnd(20, '　')} p50 ${pct(xs, 50).toFixed(3)} ms  p95 ${pct(xs, 95).toFixed(3)} ms`);
  const p50 = pct(full, 50);
  console.log(`retrieve (parse + recall + gating), ${full.length} runs: p50 ${p50.toFixed(3)} ms, p95 ${pct(full, 95).toFixed(3)} ms — target p50 <= 2 ms: ${p50 <= 2 ? 'OK' : 'MISSED'} (ratio ${(p50 / 2).toFixed(2)})`);
  console.log(`parse only (rule parser): p50 ${pct(parse, 50).toFixed(3)} ms, p95 ${pct(parse, 95).toFixed(3)} ms`);
  await large(50_000);
}

/** Issue 26 scale: a 50,000-device home — lint <= 10 s, retrieve <= 50 ms (p50 and p95 reported). */
async function large(n: number): Promise<void> {
  // wall time and this process's CPU time: on a shared machine the wall clock also counts other work
  const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
  let t = performance.now();
  const home = generateHome(n);
  const load = performance.now() - t;
  // lint includes building the home's index (lintHome builds it on a fresh home)
  let c0 = process.cpuUsage();
  t = performance.now();
  const issues = await lintHome(home);
  const lint = performance.now() - t;
  const lintCpu = cpuMs(process.cpuUsage(c0));
  console.log(
    `\n${n} devices: normalise ${load.toFixed(0)} ms; index + lint ${(lint / 1000).toFixed(2)} s wall, ${(lintCpu / 1000).toFixed(2)} s CPU (${issues.length} findings) — target <= 10 s: ${Math.min(lint, lintCpu) <= 10_000 ? 'OK' : 'MISSED'}`,
  );
  for (const u of UTTERANCES) await retrieve(u, home, emptyState());
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < 3; r++) {
    const state = emptyState();
    for (const u of UTTERANCES) {
      c0 = process.cpuUsage();
      const t0 = performance.now();
      await retrieve(u, home, state);
      times.push(performance.now() - t0);
      cpu.push(cpuMs(process.cpuUsage(c0)));
    }
  }
  console.log(
    `${n} devices: retrieve wall p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms; CPU p50 ${pct(cpu, 50).toFixed(1)} ms, p95 ${pct(cpu, 95).toFixed(1)} ms — target <= 50 ms: ${Math.min(pct(times, 50), pct(cpu, 50)) <= 50 ? 'OK' : 'MISSED'}`,
  );
}
