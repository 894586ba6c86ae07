/**
 * Setup → Availability (`/setup/availability?venue=`): when the venue takes bookings. The week at a
 * glance and the guest's live view on top, then the time periods, shifts, access rules and closures that
 * make them. Writing needs `availability` write; without it the page is read-only.
 */
import { Link } from '@tanstack/react-router';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupNav, SetupNeedsVenue } from '../SetupNav';
import { AccessRules } from './AccessRules';
import { Blackouts } from './Blackouts';
import { useAccessRules, useShifts, useTimePeriods } from './data';
import { Preview } from './Preview';
import { Shifts } from './Shifts';
import { TimePeriods } from './TimePeriods';
import { WeekView } from './WeekView';
import './setup.css';

export default function AvailabilityPage() {
  const venue = useCurrentVenue();
  const can = useCan();
  if (!venue) return <SetupNeedsVenue title="Availability" />;
  if (!can('availability', 'read'))
    return (
      <main className="page setup" id="main">
        <SetupNav venueId={venue.id} />
        <h1>Availability</h1>
        <p>Your role may not see this venue’s availability.</p>
      </main>
    );
  const canWrite = can('availability', 'write');
  return (
    <main className="page setup" id="main">
      <SetupNav venueId={venue.id} />
      <header>
        <h1>Availability</h1>
        <p className="muted">
          {venue.name} · times are the venue’s ({venue.timezone}) ·{' '}
          <Link to="/setup/catalogue" search={{ venue: venue.id }}>
            Payment policies and price lists
          </Link>
        </p>
      </header>
      <Overview venueId={venue.id} />
      <Preview venueId={venue.id} today={venue.today} draft={venue.status === 'draft'} />
      <Shifts venueId={venue.id} canWrite={canWrite} />
      <AccessRules venueId={venue.id} canWrite={canWrite} />
      <TimePeriods venueId={venue.id} canWrite={canWrite} />
      <Blackouts venueId={venue.id} today={venue.today} canWrite={canWrite} />
    </main>
  );
}

function Overview({ venueId }: { venueId: string }) {
  const shifts = useShifts(venueId).data;
  const rules = useAccessRules(venueId).data;
  const periods = useTimePeriods(venueId).data;
  if (!shifts || !rules || !periods) return <p className="muted">Loading…</p>;
  return <WeekView shifts={shifts} rules={rules} periods={periods} />;
}
