/**
 * A live venue's bundles as guests see them (extension): what the booking widget offers after a time is
 * chosen — each bundle's name, items and price (the sum of its items), for the `bundle_selections` of
 * `POST /api/public/venues/:venueId/book`. No internal fields; a draft or unknown venue is 404.
 */
import { Type } from 'typebox';
import { notFound } from '../../platform/errors.js';
import { errorResponses, Nullable } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { BundlesService } from './bundles.service.js';

const PublicBundles = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      applicable_profiles: Type.Array(Type.String({ description: '`tables`, `events`' })),
      price_pence: Type.Integer({ description: 'the bundle’s price: the sum of its items’ prices' }),
      items: Type.Array(Type.Object({ name: Type.String(), price_pence: Type.Integer(), image_url: Nullable(Type.String()) })),
    }),
  ),
});

export const bundlesPublicRoutes: RoutePlugin<{
  bundles: BundlesService;
  /** Whether the venue exists and is live (the venues module answers; composition root). */
  isLiveVenue: (venueId: string) => Promise<boolean>;
}> = async (app, { bundles, isLiveVenue }) => {
  app.get(
    '/api/public/venues/:venueId/bundles',
    {
      schema: {
        summary: "A live venue's bundles, as guests choose them",
        description:
          'Extension (the booking widget’s add-ons step): each bundle with its items and its price (the sum of the items). ' +
          'Which bundles a time offers is its access rule’s `bundle_ids` in the availability answer. Briefly edge-cached.',
        tags: ['public'],
        params: Type.Object({ venueId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: PublicBundles, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      if (!(await isLiveVenue(request.params.venueId))) throw notFound('Venue');
      const list = await bundles.list(request.params.venueId);
      reply.header('Cache-Control', 'public, max-age=0, s-maxage=30');
      return {
        data: list.map((bundle) => ({
          id: bundle.id,
          name: bundle.name,
          applicable_profiles: bundle.applicable_profiles,
          price_pence: bundle.items.reduce((sum, item) => sum + item.price, 0),
          items: bundle.items.map((item) => ({ name: item.name, price_pence: item.price, image_url: item.image_url })),
        })),
      };
    },
  );
};
