/** What the booking engine reads of the catalogue: a bundle's price (the sum of its items), one query. */
import { kyselyOf, type Conn } from '../../db/transaction.js';

/** Price in pence of each of the venue's bundles among `ids` (absent: not the venue's). */
export async function bundlePrices(db: Conn, venueId: string, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await kyselyOf(db)
    .selectFrom('bundles as b')
    .leftJoin('bundle_items as i', 'i.bundle_id', 'b.id')
    .select(['b.id', (eb) => eb.fn.coalesce(eb.fn.sum<number>('i.price'), eb.lit(0)).as('price')])
    .where('b.venue_id', '=', venueId)
    .where('b.id', 'in', [...ids])
    .groupBy('b.id')
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.price)]));
}

/** Bundles by id with their names and prices (the sum of their items'), for a booking's lines. */
export async function bundlesNamed(
  db: Conn,
  venueId: string,
  ids: readonly string[],
): Promise<Map<string, { name: string; price: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await kyselyOf(db)
    .selectFrom('bundles as b')
    .leftJoin('bundle_items as i', 'i.bundle_id', 'b.id')
    .select(['b.id', 'b.name', (eb) => eb.fn.coalesce(eb.fn.sum<number>('i.price'), eb.lit(0)).as('price')])
    .where('b.venue_id', '=', venueId)
    .where('b.id', 'in', [...ids])
    .groupBy(['b.id', 'b.name'])
    .execute();
  return new Map(rows.map((row) => [row.id, { name: row.name, price: Number(row.price) }]));
}
