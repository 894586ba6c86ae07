import { Type, type Static } from 'typebox';
import { ClockTime, DateString, Nullable, Toggle } from '../../platform/http.js';
import { TABLE_STATUSES, TABLE_TYPES } from './tables.table.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Pence = Type.Integer({ minimum: 0, maximum: 100_000_000 });
const Covers = Type.Integer({ minimum: 1, maximum: 1000 });
/**
 * Table numbers are strings; clients that send a number get it stored as its string. A number is a whole
 * one up to 99999 (floor plans number tables in the tens or hundreds), so its string is short and never
 * turns into exponent notation (`1e+21`).
 */
export const TableNumber = Type.Union([Type.String({ minLength: 1, maxLength: 50 }), Type.Integer({ minimum: 0, maximum: 99_999 })], {
  description: 'A string of 1 to 50 characters, or a whole number from 0 to 99999 (stored as its string)',
});
export const TableType = Type.Enum([...TABLE_TYPES]);
const TableStatus = Type.Enum([...TABLE_STATUSES]);

export const list = <T extends Parameters<typeof Type.Array>[0]>(row: T) => Type.Object({ data: Type.Array(row) });

export const ItemParams = Type.Object({ venueId: Type.String(), id: Type.String() });
export const PriceParams = Type.Object({ venueId: Type.String(), id: Type.String(), tableId: Type.String() });

// ---- tables ----

export const Table = Type.Object({
  id: Type.String(),
  table_number: Type.String(),
  capacity: Type.Integer(),
  min_covers: Type.Integer(),
  status: Type.String(),
  table_type: Type.String(),
  seating_area_id: Nullable(Type.String()),
  floor_id: Nullable(Type.String()),
  x: Nullable(Type.Number()),
  y: Nullable(Type.Number()),
  shape: Nullable(Type.String()),
  size: Nullable(Type.String()),
  is_blocked: Type.Optional(Type.Boolean()),
  is_taken: Type.Optional(Type.Boolean()),
});

export const TableListQuery = Type.Object({
  date: Type.Optional(DateString),
  time: Type.Optional(ClockTime),
  duration: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 24 * 60, description: 'minutes; default the venue default_booking_duration' }),
  ),
});
export type TableListQuery = Static<typeof TableListQuery>;

export const TableBody = Type.Object({
  table_number: TableNumber,
  capacity: Type.Optional(Covers),
  status: Type.Optional(TableStatus),
  table_type: Type.Optional(TableType),
  min_covers: Type.Optional(Covers),
});
export const TableUpdateBody = Type.Partial(TableBody);
export type TableUpdateBody = Static<typeof TableUpdateBody>;

const TableIds = Type.Array(Id, { minItems: 1, maxItems: 500 });
export const SetTypeBody = Type.Object({ table_ids: TableIds, table_type: TableType });
export const SetAreaBody = Type.Object({ table_ids: TableIds, seating_area_id: Nullable(Id) });

// ---- blocks ----

const DateTimeText = Type.String({
  minLength: 16,
  maxLength: 40,
  description: '`YYYY-MM-DDTHH:MM` venue-local, or ISO 8601 with an offset',
});

export const BlockBody = Type.Object({
  table_ids: TableIds,
  from: DateTimeText,
  to: DateTimeText,
  reason: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});
export const BlockUpdateBody = Type.Object({
  reason: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  blocked_from: Type.Optional(DateTimeText),
  blocked_to: Type.Optional(DateTimeText),
});
export type BlockUpdateBody = Static<typeof BlockUpdateBody>;
export const UnblockBody = Type.Object({ table_ids: TableIds });
export const BlockListQuery = Type.Object({ date: Type.Optional(DateString) });

export const Block = Type.Object({
  id: Type.String(),
  table_id: Type.String(),
  table_number: Type.String(),
  blocked_from: Type.String(),
  blocked_to: Type.String(),
  reason: Type.String(),
});
export const BlockCreated = Type.Object({ success: Type.Boolean(), ids: Type.Array(Type.String()) });

// ---- combinations ----

export const ComboBody = Type.Object({ name: Name, table_ids: Type.Array(Id, { minItems: 2, maxItems: 50 }) });
export const Combo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  table_ids: Type.Array(Type.String()),
  combined_capacity: Type.Integer(),
});
export const ComboCreated = Type.Object({ success: Type.Boolean(), id: Type.String(), combined_capacity: Type.Integer() });

// ---- seating areas ----

export const AreaBody = Type.Object({ name: Name });
export const Area = Type.Object({ id: Type.String(), name: Type.String() });
export const AreaCreated = Type.Object({ success: Type.Boolean(), id: Type.String(), name: Type.String() });

// ---- floors ----

/** The most items one floor's canvas holds: far above any real room, small enough to save in one go. */
export const MAX_CANVAS_ITEMS = 1000;

const Coordinate = Type.Number({ minimum: -1_000_000, maximum: 1_000_000 });
const Extent = Type.Number({ minimum: 0, maximum: 1_000_000 });
const Word = Type.String({ maxLength: 50 });

/**
 * A floor canvas item: the fields the floor editor uses and nothing else. Table items (`type: table`)
 * are synced with the venue's tables by tableNumber; other items (labels, walls …) are stored as sent.
 * Unknown fields are refused rather than stored: a canvas is saved often and read by every widget, so
 * it must stay small and its shape known.
 */
const canvasItemFields = {
  type: Type.String({ minLength: 1, maxLength: 50, description: '`table` for a table; anything else (`label`, `wall` …) is decoration' }),
  tableNumber: Type.Optional(TableNumber),
  tableType: Type.Optional(Nullable(TableType)),
  minCovers: Type.Optional(Nullable(Covers)),
  maxCovers: Type.Optional(Nullable(Covers)),
  shape: Type.Optional(Nullable(Word)),
  size: Type.Optional(Nullable(Word)),
  x: Type.Optional(Nullable(Coordinate)),
  y: Type.Optional(Nullable(Coordinate)),
  width: Type.Optional(Nullable(Extent)),
  height: Type.Optional(Nullable(Extent)),
  rotation: Type.Optional(Nullable(Type.Number({ minimum: -360, maximum: 360, description: 'degrees' }))),
  text: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'the text of a label' }))),
};
export const CanvasItem = Type.Object(canvasItemFields, { additionalProperties: false });
export type CanvasItem = Static<typeof CanvasItem>;
const CanvasData = Type.Array(CanvasItem, { maxItems: MAX_CANVAS_ITEMS });

export const FloorBody = Type.Object({
  name: Name,
  sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  canvas_data: Type.Optional(CanvasData),
});
export const FloorUpdateBody = Type.Partial(FloorBody);
export type FloorUpdateBody = Static<typeof FloorUpdateBody>;

// Canvases saved before items were bounded may hold other keys; the serializer leaves them out.
const CanvasOut = Type.Array(
  Type.Object({
    ...canvasItemFields,
    type: Type.String(),
    tableNumber: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    tableType: Type.Optional(Nullable(Type.String())),
    minCovers: Type.Optional(Nullable(Type.Integer())),
    maxCovers: Type.Optional(Nullable(Type.Integer())),
    shape: Type.Optional(Nullable(Type.String())),
    size: Type.Optional(Nullable(Type.String())),
  }),
);
export const Floor = Type.Object({ id: Type.String(), name: Type.String(), sort_order: Type.Integer(), canvas_data: CanvasOut });
export const FloorDetail = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sort_order: Type.Integer(),
  canvas_data: CanvasOut,
  tables: Type.Array(Table),
});

// ---- smart tables ----

export const SmartTablesBody = Type.Object({
  reassign_enabled: Type.Optional(Toggle),
  reassign_time: Type.Optional(ClockTime),
  duration_enabled: Type.Optional(Toggle),
});
export type SmartTablesBody = Static<typeof SmartTablesBody>;
export const SmartTables = Type.Object({
  reassign_enabled: Type.Boolean(),
  reassign_time: Type.String(),
  reassign_last_run: Nullable(Type.String()),
  duration_enabled: Type.Boolean(),
});
export const SmartTablesSaved = Type.Object({ success: Type.Boolean(), data: SmartTables });

// ---- price lists ----

export const PricelistBody = Type.Object({ name: Name, default_price_pence: Type.Optional(Pence) });
export const PricelistUpdateBody = Type.Partial(PricelistBody);
export type PricelistUpdateBody = Static<typeof PricelistUpdateBody>;
export const PriceBody = Type.Object({
  price_pence: Type.Union([Pence, Type.Null(), Type.Literal('')], { description: 'null or an empty string clears the override' }),
});
export const Pricelist = Type.Object({
  id: Type.String(),
  name: Type.String(),
  default_price_pence: Type.Integer(),
  table_prices: Type.Array(Type.Object({ table_id: Type.String(), table_number: Type.String(), price_pence: Type.Integer() })),
});
