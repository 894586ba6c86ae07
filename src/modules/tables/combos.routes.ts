/**
 * Table combinations under /api/my-venues/:venueId/tables/combos, gated by the `tables` permission.
 * Registered by tablesRoutes (tables.routes.ts) before /tables/:id.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { CombosService } from './combos.service.js';
import { Combo, ComboBody, ComboCreated, ItemParams, list } from './tables.schemas.js';

export const combosRoutes: RoutePlugin<{ guard: GuardFactory; combos: CombosService }> = async (app, { guard, combos }) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

  app.get(
    `${base}/tables/combos`,
    {
      schema: {
        summary: "List the venue's table combinations",
        ...common,
        params: VenueParams,
        response: { 200: list(Combo), ...readErrors },
      },
      onRequest: read,
    },
    async (request) => ({
      data: await combos.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/tables/combos`,
    {
      schema: {
        summary: 'Create a table combination',
        ...common,
        params: VenueParams,
        body: ComboBody,
        response: { 200: ComboCreated, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ...(await combos.create(venueOf(request).id, request.body)) }),
  );

  app.delete(
    `${base}/tables/combos/:id`,
    {
      schema: { summary: 'Delete a table combination', ...common, params: ItemParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await combos.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );
};
