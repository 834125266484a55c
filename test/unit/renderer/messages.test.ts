import { describe, expect, it } from 'vitest';
import { deviceReasonLabel, deviceTypeLabel, humanMessage, actionLabel, referenceLabel, conditionText, zodPhrase } from '../../../src/renderer/src/i18n/messages';
import { TYPE_LABELS } from '../../../src/core/devices/lexicon';
import { ACTION_ATTRIBUTE } from '../../../src/core/devices/values';
import { valueAttributeLabel, homeFormatLabel } from '../../../src/renderer/src/i18n/messages';

const CODE = /UNKNOWN|LOW_EVIDENCE|_hit\b|command_match|last-mentioned|Failed to fetch|Expected|number|\/tmp\/|\/home\//;

describe('message catalogue', () => {
  it('turns config field errors into Chinese field names and phrasing', () => {
    const m = humanMessage('INVALID_INPUT', '配置无效，未保存 — search.ambiguityRatio: 数值过大：期望 number <=1; search.topK: 无效输入：期望 int，实际接收 数字');
    expect(m).toBe('配置无效，未保存：「歧义比例」不能大于 1；「返回条数」必须是整数');
    expect(humanMessage('INVALID_INPUT', '参数无效 (models.import) — folder: 文件夹不存在')).toBe('参数无效：「文件夹」文件夹不存在');
  });

  it('says the backend is down instead of Failed to fetch, and hides paths and library English', () => {
    expect(humanMessage('NETWORK', '无法连接到本地服务：Failed to fetch')).toMatch(/无法连接到 GridCode 本地服务/);
    const bad = humanMessage('BAD_FILE', "/home/u/.cache/gridcode/uploads/u-GMadBq/bad-home.json 不是有效的 JSON：Expected ',' or ']' after array element in JSON at position 42");
    expect(bad).toBe('「bad-home.json」 不是有效的 JSON');
    expect(humanMessage('INTERNAL', 'Cannot read properties of undefined (reading x)')).not.toMatch(/Cannot|undefined/);
    for (const m of [bad]) expect(m).not.toMatch(CODE);
  });

  it('phrases zod limits', () => {
    expect(zodPhrase('数值过小：期望 number >=0')).toBe('不能小于 0');
    expect(zodPhrase('数值过小：期望 number >0')).toBe('必须大于 0');
    expect(zodPhrase('数值过小：期望 string >=1 字符')).toBe('不能为空');
  });

  it('has words for every device reason, type, action and reference code', () => {
    for (const code of ['name_hit', 'pinyin_hit', 'type_hit', 'room_hit', 'room_from_name', 'vector_hit', 'command_match', 'group_covers', 'reference', 'clarification_answer']) {
      expect(deviceReasonLabel(code)).not.toMatch(CODE);
      expect(deviceReasonLabel(code)).not.toBe('其他依据');
    }
    for (const [type, label] of Object.entries(TYPE_LABELS)) expect(deviceTypeLabel(type)).toBe(label);
    expect(deviceTypeLabel('someVendorThing')).toBe('其他设备');
    expect(actionLabel('UNKNOWN')).toBe('未识别的动作');
    expect(referenceLabel('last-mentioned')).toBe('上一轮提到的设备');
    expect(conditionText({ sensor: 'temperature', op: '>', value: 28, room: '卧室' })).toBe('卧室温度高于28℃');
  });

  it('names every value attribute the grammar produces and every home file format', () => {
    for (const attribute of new Set(Object.values(ACTION_ATTRIBUTE))) expect(valueAttributeLabel(attribute), attribute).toMatch(/^[\u4e00-\u9fff]+$/);
    expect(valueAttributeLabel('generic')).toBeNull();
    for (const format of ['home-assistant', 'smartthings', 'devices-array', 'home-object']) expect(homeFormatLabel(format)).not.toMatch(/home-|array|object|^smartthings/);
  });
});
