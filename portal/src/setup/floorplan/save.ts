/**
 * Reading a floor for the editor and carrying out a save plan through the table endpoints, in the order
 * the plan gives: combinations and tables removed, renumbers, the canvas (which creates the new tables),
 * then seating areas and new combinations, which need the new tables' ids.
 */
import { api, call } from '../../api/client';
import type { paths } from '../../api/schema';
import { learnIds, type KeyIds, type PlanDoc, type SavePlan, type ServerFloor } from './model';

type CanvasData = NonNullable<
  paths['/api/my-venues/{venueId}/floors/{id}']['put']['requestBody']
>['content']['application/json']['canvas_data'];

export async function loadFloor(venueId: string, floorId: string): Promise<ServerFloor> {
  const [floor, combos] = await Promise.all([
    call(api.GET('/api/my-venues/{venueId}/floors/{id}', { params: { path: { venueId, id: floorId } } })),
    call(api.GET('/api/my-venues/{venueId}/tables/combos', { params: { path: { venueId } } })),
  ]);
  return { canvas: floor.canvas_data as Record<string, unknown>[], tables: floor.tables, combos: combos.data };
}

/** Carries out `plan`; keys drawn here learn their new tables' ids in `ids`. Throws the first refusal. */
export async function runPlan(venueId: string, floorId: string, plan: SavePlan, doc: PlanDoc, ids: KeyIds): Promise<void> {
  const path = { venueId };
  for (const id of plan.deleteCombos)
    await call(api.DELETE('/api/my-venues/{venueId}/tables/combos/{id}', { params: { path: { ...path, id } } }));
  for (const id of plan.deleteTables) await call(api.DELETE('/api/my-venues/{venueId}/tables/{id}', { params: { path: { ...path, id } } }));
  for (const { id, number } of plan.renames)
    await call(api.PUT('/api/my-venues/{venueId}/tables/{id}', { params: { path: { ...path, id } }, body: { table_number: number } }));
  await call(
    api.PUT('/api/my-venues/{venueId}/floors/{id}', {
      params: { path: { ...path, id: floorId } },
      body: { canvas_data: plan.canvas as CanvasData },
    }),
  );
  if (plan.areas.length === 0 && plan.createCombos.length === 0) return;

  const saved = await loadFloor(venueId, floorId);
  learnIds(saved, doc, ids);
  const idOf = (key: string) => {
    const id = ids.get(key);
    if (!id) throw new Error('A table of this floor was not saved');
    return id;
  };
  for (const { areaId, keys } of plan.areas)
    await call(
      api.POST('/api/my-venues/{venueId}/tables/set-area', {
        params: { path },
        body: { table_ids: keys.map(idOf), seating_area_id: areaId },
      }),
    );
  for (const combo of plan.createCombos)
    await call(
      api.POST('/api/my-venues/{venueId}/tables/combos', {
        params: { path },
        body: { name: combo.name, table_ids: combo.tables.map(idOf) },
      }),
    );
}
