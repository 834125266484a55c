import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile } from '../../../src/core/devices/home';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState } from '../../../src/core/devices/types';

const home = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices-batch6/family.json')).home;
const run = (said: string) => retrieve(said, home, emptyState());
const ids = async (said: string) => [...new Set((await run(said)).flatMap((r) => r.selected.map((s) => s.id)))].sort();

describe('English words as app screens write them; counting in everyday words (issue 26, batch 7 mechanisms)', () => {
  it('set to N degrees / mute / colour names / 传感器 read like the Chinese words', async () => {
    const [ac] = await run('主卧AC set to 25 degrees');
    expect(ac.selected.map((s) => s.id)).toEqual(['mb.ac']);
    expect(ac.ir.value?.number).toBe(25);
    expect(ac.ir.value?.unit).toBe('℃');
    expect((await run('mute客厅电视'))[0].command.a).toBe('静音');
    const [strip] = await run('把灯带调成blue');
    expect(strip.selected.map((s) => s.id)).toEqual(['lr.strip']);
    expect(strip.ir.value?.text).toContain('蓝');
    expect(await ids('有哪些传感器')).toEqual(['st.sensor']);
    // what is played glued to a part of a name (播放歌sonos) leaves the name: the Sonos plays, nothing is asked
    const [play] = await run('play music on the Sonos');
    expect(play.selected.map((s) => s.id)).toEqual(['lr.sonos']);
    expect(play.command.a).toBe('播放');
    expect(play.clarification).toBeNull();
  });

  it('一共几盏 / 装了几个 are counting questions; a story player typed 故事机 is not counted as a 音箱 but still plays', async () => {
    expect(await ids('阳台一共几盏灯')).toEqual(['bc.ambient', 'bc.light', 'bc.wall']);
    expect(await ids('家里装了几个窗帘')).toEqual(['lr.curtain', 'mb.curtain']);
    expect(await ids('有几个音箱')).toEqual(['lr.sonos', 'st.speaker']);
    const [pause] = await run('暂停故事机');
    expect(pause.selected.map((s) => s.id)).toEqual(['kr.story']);
    expect((await run('故事机音量调到20'))[0].command.a).toBe('调音量');
  });
});
