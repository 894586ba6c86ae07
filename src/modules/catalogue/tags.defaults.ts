/**
 * The platform's default tag catalogue: a starting set of guest (CRM) and reservation (booking)
 * categories and tags every venue has. Read-only: venues add their own next to these and may tune the
 * categories' flags, but cannot remove a default.
 */
import type { TagKind } from './catalogue.schemas.js';

export interface DefaultCategory {
  kind: TagKind;
  name: string;
  allow_guest_select: boolean;
  show_on_slip: boolean;
  show_in_summary: boolean;
  tags: string[];
}

export const DEFAULT_TAG_CATALOGUE: readonly DefaultCategory[] = [
  {
    kind: 'guest',
    name: 'VIP',
    allow_guest_select: false,
    show_on_slip: true,
    show_in_summary: true,
    tags: ['VIP', 'Celebrity', 'Influencer', 'Press', 'Industry', 'Friend of the House'],
  },
  {
    kind: 'guest',
    name: 'Dietary',
    allow_guest_select: true,
    show_on_slip: true,
    show_in_summary: true,
    tags: ['Vegetarian', 'Vegan', 'Gluten Free', 'Dairy Free', 'Nut Allergy', 'Shellfish Allergy', 'Halal', 'Kosher'],
  },
  {
    kind: 'guest',
    name: 'Behaviour',
    allow_guest_select: false,
    show_on_slip: false,
    show_in_summary: true,
    tags: ['Regular', 'Big Spender', 'Usually Late', 'No-Show Risk', 'Do Not Admit'],
  },
  {
    kind: 'guest',
    name: 'Preferences',
    allow_guest_select: true,
    show_on_slip: true,
    show_in_summary: false,
    tags: ['Window Seat', 'Quiet Table', 'Booth', 'Bar Seating', 'Step-Free Access'],
  },
  {
    kind: 'reservation',
    name: 'Occasion',
    allow_guest_select: true,
    show_on_slip: true,
    show_in_summary: true,
    tags: ['Birthday', 'Anniversary', 'Date Night', 'Business', 'Celebration', 'Proposal', 'Hen / Stag'],
  },
  {
    kind: 'reservation',
    name: 'Seating',
    allow_guest_select: true,
    show_on_slip: true,
    show_in_summary: false,
    tags: ['Window', 'Booth', 'Outdoor', 'Bar', 'Quiet Area', 'High Chair', 'Wheelchair Access'],
  },
  {
    kind: 'reservation',
    name: 'Service',
    allow_guest_select: false,
    show_on_slip: true,
    show_in_summary: true,
    tags: ['Bottle Service', 'Cake', 'Champagne on Arrival', 'Set Menu', 'Pre-Order', 'Pre-Paid'],
  },
];
