/**
 * Seating areas under /api/my-venues/:venueId/seating-areas, gated by the `tables` permission.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { AreasService } from './areas.service.js';
import { Area, AreaBody, AreaCreated, ItemParams, list } from './tables.schemas.js';

export const areasRoutes: RoutePlugin<{ guard: GuardFactory; areas: AreasService }> = async (app, { guard, areas }) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

  app.get(
    `${base}/seating-areas`,
    {
      schema: { summary: "List the venue's seating areas", ...common, params: VenueParams, response: { 200: list(Area), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await areas.list(venueOf(request).id),
    }),
  );

  app.post(
    `${base}/seating-areas`,
    {
      schema: {
        summary: 'Create a seating area',
        ...common,
        params: VenueParams,
        body: AreaBody,
        response: { 200: AreaCreated, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ...(await areas.create(venueOf(request).id, request.body.name)) }),
  );

  app.put(
    `${base}/seating-areas/:id`,
    {
      schema: {
        summary: 'Rename a seating area',
        ...common,
        params: ItemParams,
        body: AreaBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await areas.rename(venueOf(request).id, request.params.id, request.body.name);
      return ok;
    },
  );

  app.delete(
    `${base}/seating-areas/:id`,
    {
      schema: {
        summary: 'Delete a seating area',
        ...common,
        description: 'Detaches its tables first.',
        params: ItemParams,
        response: { 200: SuccessBody, ...readErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await areas.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );
};
