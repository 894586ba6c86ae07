/**
 * The tables module owns a venue's floorplan under /api/my-venues/:venueId, gated by the `tables`
 * permission: tables (bulk type and area), blocks, combinations, floors with their canvas, seating
 * areas, smart-table settings and price lists. occupancy.ts is its query seam for the booking engine.
 *
 * tablesRoutes is the module's one route plugin: the table routes are here; blocks, combos, floors,
 * seating areas and pricing (smart tables, price lists) have their own `<name>.routes.ts`, registered
 * from here in the order of the API reference.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { AreasService } from './areas.service.js';
import { areasRoutes } from './areas.routes.js';
import type { BlocksService } from './blocks.service.js';
import { blocksRoutes } from './blocks.routes.js';
import type { CombosService } from './combos.service.js';
import { combosRoutes } from './combos.routes.js';
import type { FloorsService } from './floors.service.js';
import { floorsRoutes } from './floors.routes.js';
import type { PricingService } from './pricing.service.js';
import { pricingRoutes } from './pricing.routes.js';
import { ItemParams, list, SetAreaBody, SetTypeBody, Table, TableBody, TableListQuery, TableUpdateBody } from './tables.schemas.js';
import type { TablesService } from './tables.service.js';

export interface TablesServices {
  tables: TablesService;
  blocks: BlocksService;
  combos: CombosService;
  areas: AreasService;
  floors: FloorsService;
  pricing: PricingService;
}

export const tablesRoutes: RoutePlugin<TablesServices & { guard: GuardFactory }> = async (
  app,
  { guard, tables, blocks, combos, areas, floors, pricing },
) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

  // ---- tables ----
  app.get(
    `${base}/tables`,
    {
      schema: {
        summary: "List the venue's tables (optionally blocked/taken at a time)",
        ...common,
        description:
          'With `date` and `time` (venue-local) and optional `duration` (minutes, default the venue default_booking_duration), each row adds `is_blocked` and `is_taken` for that window. ' +
          'The window is `duration` real minutes; on a daylight-saving change day a skipped local time moves forward and a repeated one means its first occurrence.',
        params: VenueParams,
        querystring: TableListQuery,
        response: { 200: list(Table), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({ data: await tables.list(venueOf(request), request.query) }),
  );

  // Static /tables/* paths are registered before /tables/:id; Fastify prefers static segments anyway.
  // Each part is awaited so that the routes keep this order (and the API reference with them).
  await app.register(blocksRoutes, { guard, blocks });
  await app.register(combosRoutes, { guard, combos });

  app.post(
    `${base}/tables/set-type`,
    {
      schema: {
        summary: 'Set the type of several tables',
        ...common,
        params: VenueParams,
        body: SetTypeBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.setType(venueOf(request).id, request.body.table_ids, request.body.table_type);
      return ok;
    },
  );

  app.post(
    `${base}/tables/set-area`,
    {
      schema: {
        summary: 'Move several tables to a seating area',
        ...common,
        description: 'A null seating_area_id detaches the tables.',
        params: VenueParams,
        body: SetAreaBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.setArea(venueOf(request).id, request.body.table_ids, request.body.seating_area_id);
      return ok;
    },
  );

  app.get(
    `${base}/tables/:id`,
    { schema: { summary: 'Read a table', ...common, params: ItemParams, response: { 200: Table, ...readErrors } }, onRequest: read },
    async (request) => tables.get(venueOf(request).id, request.params.id),
  );

  app.post(
    `${base}/tables`,
    {
      schema: {
        summary: 'Create a table',
        ...common,
        description: 'Capacity defaults to 4, status to `active`, type to `standard`.',
        params: VenueParams,
        body: TableBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await tables.create(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/tables/:id`,
    {
      schema: {
        summary: 'Update a table',
        ...common,
        description: 'Updates the fields sent.',
        params: ItemParams,
        body: TableUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/tables/:id`,
    {
      schema: {
        summary: 'Delete a table',
        ...common,
        description: '409 while the table holds an upcoming reservation.',
        params: ItemParams,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await tables.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );

  await app.register(floorsRoutes, { guard, floors });
  await app.register(areasRoutes, { guard, areas });
  await app.register(pricingRoutes, { guard, pricing });
};
