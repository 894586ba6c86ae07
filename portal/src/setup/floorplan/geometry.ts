/**
 * The editor's geometry, pure: the grid tables snap to, arrow-key steps, sizes by shape, rotation, the
 * canvas's bounds, and the next free table number.
 */
export const GRID = 10;
/** Arrow keys move a table one grid step; with Shift, five. */
const BIG_STEP = GRID * 5;
export const MIN_SIDE = 40;
export const MAX_SIDE = 400;
export const CANVAS = { width: 1200, height: 800 };

export const isRound = (shape: string | null | undefined) => shape === 'round' || shape === 'circle';

export const snap = (value: number, grid = GRID) => Math.round(value / grid) * grid;

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Keeps a table of this size inside the canvas, on the grid when `snapping`. */
export function place(x: number, y: number, width: number, height: number, snapping: boolean) {
  const at = (v: number) => (snapping ? snap(v) : Math.round(v));
  return {
    x: clamp(at(x), 0, CANVAS.width - width),
    y: clamp(at(y), 0, CANVAS.height - height),
  };
}

/** The change an arrow key makes, or null for any other key. */
export function arrowDelta(key: string, shift: boolean): { dx: number; dy: number } | null {
  const step = shift ? BIG_STEP : GRID;
  switch (key) {
    case 'ArrowLeft':
      return { dx: -step, dy: 0 };
    case 'ArrowRight':
      return { dx: step, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -step };
    case 'ArrowDown':
      return { dx: 0, dy: step };
    default:
      return null;
  }
}

/** A side after a resize: on the grid when snapping, within the bounds. */
export const side = (value: number, snapping: boolean) => clamp(snapping ? snap(value) : Math.round(value), MIN_SIDE, MAX_SIDE);

/** The default size of a table drawn without one: by shape and the canvas's size word (`large` for six or more). */
export function defaultSize(shape: string | null | undefined, size: string | null | undefined) {
  const large = size === 'large';
  if (isRound(shape)) return large ? { width: 100, height: 100 } : { width: 80, height: 80 };
  return large ? { width: 120, height: 80 } : { width: 100, height: 70 };
}

/** Rotation in degrees, turned by `by` and kept within (-360, 360) as the canvas stores it. */
export const rotate = (rotation: number, by: number) => (((rotation + by) % 360) + 360) % 360;

/** One more than the highest numeric table number in use (1 with none); never a number already taken. */
export function nextTableNumber(numbers: Iterable<string>): string {
  const taken = new Set(numbers);
  let highest = 0;
  for (const number of taken) if (/^\d+$/.test(number)) highest = Math.max(highest, Number(number));
  let next = highest + 1;
  while (taken.has(String(next))) next += 1;
  return String(next);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box, gap: number) =>
  a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;

/** The first spot on the grid, left to right and top to bottom, where a table of this size overlaps none. */
export function freeSpot(tables: Box[], width: number, height: number): { x: number; y: number } {
  const gap = GRID * 2;
  for (let y = GRID * 4; y + height <= CANVAS.height; y += GRID * 2)
    for (let x = GRID * 4; x + width <= CANVAS.width; x += GRID * 2)
      if (!tables.some((table) => overlaps({ x, y, width, height }, table, gap))) return { x, y };
  return { x: GRID * 4, y: GRID * 4 };
}
