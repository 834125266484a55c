import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers';
import { openDatabase, type Db } from '../../../src/core/store/db';
import { allMigrations } from '../../../src/core/schema';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function fresh(): Db {
  const dir = tempDir('gridcode-stmt-');
  dirs.push(dir);
  const db = openDatabase(dir, allMigrations);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
  for (const v of ['a', 'b', 'c']) ins.run(v);
  return db;
}

describe('the statement cache of openDatabase', () => {
  it('hands back the statement prepared earlier for the same SQL', () => {
    const db = fresh();
    const a = db.prepare('SELECT v FROM t WHERE id = ?');
    expect(db.prepare('SELECT v FROM t WHERE id = ?')).toBe(a);
    expect(db.prepare('SELECT v FROM t WHERE id = ? ')).not.toBe(a);
    db.close();
  });

  it('never changes the mode of a statement another caller holds', () => {
    const db = fresh();
    const held = db.prepare('SELECT v FROM t WHERE id = ?');
    expect(db.prepare('SELECT v FROM t WHERE id = ?').pluck().get(1)).toBe('a');
    expect(db.prepare('SELECT v FROM t WHERE id = ?').raw().get(2)).toEqual(['b']);
    expect(held.get(3)).toEqual({ v: 'c' });
    // the plucked statement is shared too, and stays plucked
    const plucked = db.prepare('SELECT v FROM t WHERE id = ?').pluck();
    expect(db.prepare('SELECT v FROM t WHERE id = ?').pluck()).toBe(plucked);
    expect(plucked.pluck(false).get(1)).toEqual({ v: 'a' });
    expect(plucked.get(1)).toBe('a');
    // bound parameters stay with the caller that bound them
    const bound = db.prepare('SELECT v FROM t WHERE id = ?').bind(2);
    expect(bound.get()).toEqual({ v: 'b' });
    expect(held.get(1)).toEqual({ v: 'a' });
    db.close();
  });

  it('gives a fresh statement while the cached one is iterating', () => {
    const db = fresh();
    const seen: string[] = [];
    for (const row of db.prepare('SELECT id, v FROM t ORDER BY id').iterate() as Iterable<{ id: number; v: string }>) {
      // the same SQL again inside the loop: without a fresh statement this throws "busy"
      const again = db.prepare('SELECT id, v FROM t ORDER BY id').all() as { id: number; v: string }[];
      seen.push(`${row.v}${again.length}`);
    }
    expect(seen).toEqual(['a3', 'b3', 'c3']);
    db.close();
  });
});
