/**
 * Setup → Catalogue (`/setup/catalogue?venue=`): the reusable pieces access rules and events point at —
 * payment policies (with the terms in the guest's words), price lists, profiles and admission rules,
 * bundles, promo codes and tags — and copying any of them from another venue. Each part shows only
 * when the role may read it (`profiles`, `tables`, `catalogue`) and offers changes only with write.
 */
import { Link } from '@tanstack/react-router';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupNav, SetupNeedsVenue } from '../SetupNav';
import { Admission } from './Admission';
import { Bundles } from './Bundles';
import { CopyFrom } from './CopyFrom';
import { PaymentPolicies } from './PaymentPolicies';
import { Pricelists } from './Pricelists';
import { Profiles } from './Profiles';
import { PromoCodes } from './PromoCodes';
import { Tags } from './Tags';
import '../availability/setup.css';

export default function CataloguePage() {
  const venue = useCurrentVenue();
  const can = useCan();
  if (!venue) return <SetupNeedsVenue title="Catalogue" />;
  const parts = [
    { id: 'policies', title: 'Payment policies', show: can('profiles', 'read') },
    { id: 'prices', title: 'Price lists', show: can('tables', 'read') },
    { id: 'profiles', title: 'Profiles and admission', show: can('profiles', 'read') },
    { id: 'extras', title: 'Bundles and promo codes', show: can('catalogue', 'read') },
    { id: 'tags', title: 'Tags', show: can('catalogue', 'read') },
    { id: 'copy', title: 'Copy from another venue', show: can('catalogue', 'write') },
  ].filter((p) => p.show);
  return (
    <main className="page setup" id="main">
      <SetupNav venueId={venue.id} />
      <header>
        <h1>Catalogue</h1>
        <p className="muted">
          {venue.name} ·{' '}
          <Link to="/setup/availability" search={{ venue: venue.id }}>
            Availability
          </Link>
        </p>
      </header>
      {parts.length === 0 ? (
        <p>Your role may not see this venue’s catalogue.</p>
      ) : (
        <nav aria-label="Catalogue parts" className="setup-toc">
          {parts.map((p) => (
            <a key={p.id} href={`#${p.id}`}>
              {p.title}
            </a>
          ))}
        </nav>
      )}
      {can('profiles', 'read') && (
        <div id="policies">
          <PaymentPolicies venueId={venue.id} canWrite={can('profiles', 'write')} />
        </div>
      )}
      {can('tables', 'read') && (
        <div id="prices">
          <Pricelists venueId={venue.id} canWrite={can('tables', 'write')} />
        </div>
      )}
      {can('profiles', 'read') && (
        <div id="profiles">
          <Profiles venueId={venue.id} canWrite={can('profiles', 'write')} />
          <Admission venueId={venue.id} canWrite={can('profiles', 'write')} />
        </div>
      )}
      {can('catalogue', 'read') && (
        <>
          <div id="extras">
            <Bundles venueId={venue.id} canWrite={can('catalogue', 'write')} />
            <PromoCodes venueId={venue.id} canWrite={can('catalogue', 'write')} />
          </div>
          <div id="tags">
            <Tags venueId={venue.id} canWrite={can('catalogue', 'write')} />
          </div>
        </>
      )}
      {can('catalogue', 'write') && (
        <div id="copy">
          <CopyFrom venueId={venue.id} />
        </div>
      )}
    </main>
  );
}
