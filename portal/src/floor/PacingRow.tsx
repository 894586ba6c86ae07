import { memo } from 'react';
import { PX_PER_MINUTE } from './model';
import { DAY_MINUTES, clockOf } from './time';

/**
 * Covers per 15 minutes on the grid's own time scale, kept in view under the hours as the grid scrolls
 * (Tock's pacing row): a bar and its number over each quarter hour that has arrivals.
 */
export const PacingRow = memo(function PacingRow({ steps }: { steps: number[] }) {
  const max = Math.max(1, ...steps);
  const quarter = 15 * PX_PER_MINUTE;
  return (
    <div className="grid__pacing" aria-hidden="true">
      <div className="grid__corner grid__corner--pacing">Covers</div>
      <div className="grid__pacing-bars" style={{ width: DAY_MINUTES * PX_PER_MINUTE }}>
        {steps.map((covers, i) =>
          covers > 0 ? (
            <span
              key={i}
              className="pacing-step"
              style={{ left: i * quarter + 1, width: quarter - 2 }}
              title={`${clockOf(i * 15)}: ${covers} covers`}
            >
              <span className="pacing-step__bar" style={{ height: `${Math.round((covers / max) * 14) + 2}px` }} />
              <span className="pacing-step__n">{covers}</span>
            </span>
          ) : null,
        )}
      </div>
    </div>
  );
});
