/** The portal's API types are generated from the route schemas: this fails when the checked-in file drifted. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypes } from '../../../scripts/api-types.js';

describe('portal API types', () => {
  it('match the OpenAPI document the routes build (run npm run api:types after changing a route schema)', async () => {
    const current = fs.readFileSync(API_TYPES_FILE, 'utf8');
    expect(current === (await apiTypes()), 'portal/src/api/schema.d.ts is out of date: run npm run api:types').toBe(true);
  });
});
