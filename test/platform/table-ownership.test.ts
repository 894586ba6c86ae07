/**
 * A module's tables are its own: no source file of another module selects from, inserts into, updates,
 * deletes from or joins a table declared in a module's `*.table.ts` (the linter checks imports; this
 * checks the table names queries use). Within bookings, only `core/` writes the booking record
 * (`bookings`, `booking_tables`, `booking_slots`); its flows go through core's functions. Tests may look
 * at (and write) any table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve('src/modules');
const QUERY =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*\[?\s*'([a-z_]+)(?: as [a-z_]+)?'/g;

/** A write of the booking record, which only src/modules/bookings/core/ may make. */
const BOOKING_WRITE = /\b(?:insertInto|updateTable|deleteFrom)\(\s*'(bookings|booking_tables|booking_slots)'/g;

function filesOf(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesOf(file) : entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Table name → owning module, from each module's `*.table.ts` (`name: XxxTable;` members of its `XxxTables`). */
function owners(): Map<string, string> {
  const owner = new Map<string, string>();
  for (const module of fs.readdirSync(MODULES).filter((name) => fs.statSync(path.join(MODULES, name)).isDirectory())) {
    for (const file of filesOf(path.join(MODULES, module)).filter((f) => f.endsWith('.table.ts'))) {
      const block = /export interface \w+Tables\s*{([^}]*)}/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '';
      for (const [, table] of block.matchAll(/^\s*([a-z_]+):/gm)) owner.set(table, module);
    }
  }
  return owner;
}

describe('table ownership', () => {
  it('knows every module’s tables', () => {
    const owner = owners();
    expect(owner.get('users')).toBe('auth');
    expect(owner.get('venue_tables')).toBe('tables');
    expect(owner.get('bookings')).toBe('bookings');
    expect(owner.size).toBeGreaterThan(40);
  });

  it('no module queries another module’s tables', () => {
    const owner = owners();
    const trespasses: string[] = [];
    for (const file of filesOf(MODULES).filter((f) => !/\.test(-support|-helpers)?\.ts$/.test(f))) {
      const module = path.relative(MODULES, file).split(path.sep)[0];
      if (module === 'index.ts') continue;
      for (const [, table] of fs.readFileSync(file, 'utf8').matchAll(QUERY)) {
        const tableOwner = owner.get(table);
        if (tableOwner && tableOwner !== module) trespasses.push(`${path.relative(MODULES, file)} uses ${table} (${tableOwner}'s)`);
      }
    }
    expect(trespasses).toEqual([]);
  });

  it('only bookings/core writes bookings, booking_tables and booking_slots', () => {
    const core = path.join(MODULES, 'bookings', 'core') + path.sep;
    const writers: string[] = [];
    for (const file of filesOf(path.resolve('src')).filter((f) => !/\.test(-support|-helpers)?\.ts$/.test(f))) {
      if (file.startsWith(core)) continue;
      for (const [, table] of fs.readFileSync(file, 'utf8').matchAll(BOOKING_WRITE))
        writers.push(`${path.relative('src', file)} writes ${table}`);
    }
    expect(writers).toEqual([]);
  });

  it('would see a write of the booking record', () => {
    const sample =
      "await trx.insertInto('bookings').values(row); await k.updateTable('booking_tables'); await k.deleteFrom( 'booking_slots')";
    expect([...sample.matchAll(BOOKING_WRITE)].map((m) => m[1])).toEqual(['bookings', 'booking_tables', 'booking_slots']);
    expect([..."selectFrom('bookings') insertInto('booking_history')".matchAll(BOOKING_WRITE)]).toEqual([]);
  });

  it('would see a trespass', () => {
    const sample = "await db.selectFrom('venues as v').innerJoin('users', 'users.id', 'v.owner')";
    expect([...sample.matchAll(QUERY)].map((m) => m[1])).toEqual(['venues', 'users']);
  });
});
