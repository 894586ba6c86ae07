/**
 * Floors with their canvas under /api/my-venues/:venueId/floors, gated by the `tables` permission.
 */
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { tablesRouteKit } from './route-kit.js';
import type { FloorsService } from './floors.service.js';
import { Floor, FloorBody, FloorDetail, FloorUpdateBody, ItemParams, list } from './tables.schemas.js';

export const floorsRoutes: RoutePlugin<{ guard: GuardFactory; floors: FloorsService }> = async (app, { guard, floors }) => {
  const { base, read, write, common, readErrors, writeErrors, ok } = tablesRouteKit(guard);

  app.get(
    `${base}/floors`,
    {
      schema: { summary: "List the venue's floors", ...common, params: VenueParams, response: { 200: list(Floor), ...readErrors } },
      onRequest: read,
    },
    async (request) => ({
      data: await floors.list(venueOf(request).id),
    }),
  );

  app.get(
    `${base}/floors/:id`,
    {
      schema: {
        summary: 'Read a floor with its canvas and tables',
        ...common,
        params: ItemParams,
        response: { 200: FloorDetail, ...readErrors },
      },
      onRequest: read,
    },
    async (request) => floors.get(venueOf(request).id, request.params.id),
  );

  app.post(
    `${base}/floors`,
    {
      schema: {
        summary: 'Create a floor',
        ...common,
        params: VenueParams,
        body: FloorBody,
        response: { 200: CreatedBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await floors.create(venueOf(request).id, request.body) }),
  );

  app.put(
    `${base}/floors/:id`,
    {
      schema: {
        summary: "Update a floor and sync its canvas's tables",
        ...common,
        description:
          'canvas_data replaces the canvas and syncs the tables (matched by tableNumber; unknown numbers are created; tables left out leave the floor).',
        params: ItemParams,
        body: FloorUpdateBody,
        response: { 200: SuccessBody, ...writeErrors },
      },
      onRequest: write,
    },
    async (request) => {
      await floors.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );

  app.delete(
    `${base}/floors/:id`,
    {
      schema: { summary: 'Delete a floor', ...common, params: ItemParams, response: { 200: SuccessBody, ...readErrors } },
      onRequest: write,
    },
    async (request) => {
      await floors.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );
};
