/**
 * The guest's one-hop network (`GET /api/my-guests/:id/network`): the guest in the middle, their
 * connections (guests they booked with on at least 2 dates within a year) on a ring around them, and the
 * links among those. The picture is an SVG; the same graph is a list of connections (with links to each
 * guest and whom else they are linked to), which is what a screen reader reads.
 */
import { Link } from '@tanstack/react-router';
import type { Network } from './data';

const SIZE = 360;
const MID = SIZE / 2;
const RING = 130;

export function NetworkView({ network, venueId }: { network: Network; venueId?: string }) {
  const centre = network.nodes.find((node) => node.id === network.centre_id);
  const others = network.nodes.filter((node) => node.id !== network.centre_id);
  const at = new Map<string, { x: number; y: number }>([[network.centre_id, { x: MID, y: MID }]]);
  others.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / others.length - Math.PI / 2;
    at.set(node.id, { x: MID + RING * Math.cos(angle), y: MID + RING * Math.sin(angle) });
  });
  const names = new Map(network.nodes.map((node) => [node.id, node.name]));
  const linksOf = (id: string) =>
    network.edges
      .filter(
        (edge) => (edge.source === id || edge.target === id) && edge.source !== network.centre_id && edge.target !== network.centre_id,
      )
      .map((edge) => names.get(edge.source === id ? edge.target : edge.source) ?? '');

  return (
    <section className="panel guest__panel" aria-labelledby="network-title">
      <h2 id="network-title">Network</h2>
      <p className="muted">
        Guests who booked with {centre?.name ?? 'this guest'} (same venue, date and time) on at least 2 dates in the last year.
      </p>
      {others.length === 0 ? (
        <p>No connections yet.</p>
      ) : (
        <div className="network">
          <svg
            className="network__graph"
            viewBox={`0 0 ${SIZE} ${SIZE}`}
            role="img"
            aria-label={`Network graph: ${centre?.name ?? 'the guest'} and ${others.length} ${others.length === 1 ? 'connection' : 'connections'}, listed beside it`}
          >
            {network.edges.map((edge) => {
              const a = at.get(edge.source);
              const b = at.get(edge.target);
              if (!a || !b) return null;
              return <line key={`${edge.source}-${edge.target}`} x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="network__edge" />;
            })}
            {network.nodes.map((node) => {
              const p = at.get(node.id)!;
              const isCentre = node.id === network.centre_id;
              return (
                <g key={node.id} transform={`translate(${p.x} ${p.y})`}>
                  <circle r={isCentre ? 16 : 10} className={isCentre ? 'network__node network__node--centre' : 'network__node'} />
                  <text y={isCentre ? 32 : 24} textAnchor="middle" className="network__label">
                    {node.name.length > 18 ? `${node.name.slice(0, 17)}…` : node.name}
                  </text>
                </g>
              );
            })}
          </svg>
          <ul className="network__list" aria-label={`Connections of ${centre?.name ?? 'the guest'}`}>
            {others.map((node) => {
              const links = linksOf(node.id);
              return (
                <li key={node.id}>
                  <Link to="/guests/$guestId" params={{ guestId: node.id }} search={{ venue: venueId }}>
                    {node.name}
                  </Link>
                  <span className="muted">
                    {' '}
                    · {node.followers} {node.followers === 1 ? 'connection' : 'connections'}
                    {node.verified ? ' · has an account' : ''}
                    {node.tier ? ` · ${node.tier}` : ''}
                  </span>
                  {links.length > 0 && <div className="muted">Also linked to {links.join(', ')}</div>}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}
