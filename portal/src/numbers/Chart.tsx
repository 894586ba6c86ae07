/**
 * One chart of the Numbers page: a hand-drawn SVG bar chart (stacked when it has several series, each
 * series a colour named in the legend) with the same numbers beside it in a table, and a button that
 * downloads exactly those numbers as CSV. The SVG is a picture described in words; the table is what
 * screen readers and keyboards use.
 */
import { useId } from 'react';
import { csvText } from './data';

export interface Series {
  label: string;
  values: number[];
}

const COLOURS = ['#1f5fbf', '#d9822b', '#1d7a3e', '#8e44ad', '#b42318', '#5b6673'];
const W = 640;
const H = 240;
const LEFT = 56;
const BOTTOM = 34;
const TOP = 12;

export function Chart(props: {
  id: string;
  title: string;
  intro?: string;
  /** The x categories (dates as YYYY-MM-DD, shift names …) and how each shows. */
  keys: string[];
  keyLabel: (key: string) => string;
  /** The first column's heading. */
  keyHeading: string;
  series: Series[];
  /** A value as shown (e.g. £) and as written into the CSV (e.g. pounds with two decimals). */
  format?: (value: number) => string;
  csvValue?: (value: number) => string | number;
  /** The CSV's file name, without `.csv`. */
  file: string;
  /** The CSV's column headings for the series (defaults to their labels). */
  csvHeadings?: string[];
}) {
  const format = props.format ?? ((n: number) => n.toLocaleString('en-GB'));
  const csvValue = props.csvValue ?? ((n: number) => n);
  const titleId = useId();
  const descId = useId();
  const stacked = props.series.length > 1;
  const totals = props.keys.map((_, i) => props.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const grand = totals.reduce((a, b) => a + b, 0);
  const top = niceTop(Math.max(0, ...totals));
  const plotW = W - LEFT - 8;
  const plotH = H - TOP - BOTTOM;
  const step = props.keys.length > 0 ? plotW / props.keys.length : plotW;
  const barW = Math.max(2, Math.min(48, step * 0.7));
  const y = (value: number) => TOP + plotH - (top === 0 ? 0 : (value / top) * plotH);
  const labelEvery = Math.ceil(props.keys.length / 10);
  const peak = totals.length > 0 ? totals.indexOf(Math.max(...totals)) : -1;
  const description =
    props.keys.length === 0
      ? 'No data.'
      : `${props.keys.length} ${props.keys.length === 1 ? 'bar' : 'bars'}, total ${format(grand)}` +
        (peak >= 0 && totals[peak] > 0 ? `; highest ${format(totals[peak])} on ${props.keyLabel(props.keys[peak])}.` : '; all zero.');

  function download() {
    const header = [props.keyHeading, ...(props.csvHeadings ?? props.series.map((s) => s.label)), ...(stacked ? ['Total'] : [])];
    const rows = props.keys.map((key, i) => [
      key,
      ...props.series.map((s) => csvValue(s.values[i] ?? 0)),
      ...(stacked ? [csvValue(totals[i])] : []),
    ]);
    const url = URL.createObjectURL(new Blob([csvText(header, rows)], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${props.file}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return (
    <section className="panel chart" aria-labelledby={`${props.id}-title`} id={props.id}>
      <div className="chart__head">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        <button type="button" className="button" onClick={download} aria-label={`Download ${props.title.toLowerCase()} as CSV`}>
          Download CSV
        </button>
      </div>
      {props.intro && <p className="muted">{props.intro}</p>}
      <div className="chart__body">
        <svg className="chart__svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
          <title id={titleId}>{props.title}</title>
          <desc id={descId}>{description}</desc>
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line x1={LEFT} x2={W - 8} y1={y(top * f)} y2={y(top * f)} className="chart__grid" />
              <text x={LEFT - 6} y={y(top * f) + 4} textAnchor="end" className="chart__tick">
                {format(top * f)}
              </text>
            </g>
          ))}
          {props.keys.map((key, i) => {
            const x = LEFT + step * i + (step - barW) / 2;
            let base = 0;
            return (
              <g key={key}>
                {props.series.map((s, si) => {
                  const value = s.values[i] ?? 0;
                  const y0 = y(base);
                  base += value;
                  const y1 = y(base);
                  return value > 0 ? (
                    <rect key={si} x={x} y={y1} width={barW} height={Math.max(0, y0 - y1)} fill={COLOURS[si % COLOURS.length]} />
                  ) : null;
                })}
                {i % labelEvery === 0 && (
                  <text x={x + barW / 2} y={H - BOTTOM + 16} textAnchor="middle" className="chart__tick">
                    {shortLabel(props.keyLabel(key))}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
        <div className="chart__table" role="region" aria-label={`${props.title}: the numbers`} tabIndex={0}>
          <table className="money-table">
            <thead>
              <tr>
                <th scope="col">{props.keyHeading}</th>
                {props.series.map((s, si) => (
                  <th scope="col" className="num" key={s.label}>
                    {stacked && <span className="swatch" style={{ background: COLOURS[si % COLOURS.length] }} aria-hidden="true" />}
                    {s.label}
                  </th>
                ))}
                {stacked && (
                  <th scope="col" className="num">
                    Total
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {props.keys.map((key, i) => (
                <tr key={key}>
                  <th scope="row">{props.keyLabel(key)}</th>
                  {props.series.map((s) => (
                    <td className="num" key={s.label}>
                      {format(s.values[i] ?? 0)}
                    </td>
                  ))}
                  {stacked && <td className="num">{format(totals[i])}</td>}
                </tr>
              ))}
            </tbody>
            {props.keys.length > 1 && (
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  {props.series.map((s) => (
                    <td className="num" key={s.label}>
                      {format(s.values.reduce((a, b) => a + b, 0))}
                    </td>
                  ))}
                  {stacked && <td className="num">{format(grand)}</td>}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      </div>
    </section>
  );
}

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the highest bar. */
function niceTop(max: number): number {
  if (max <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * power >= max) return m * power;
  return 10 * power;
}

/** "Mon 15 Jun" → "15 Jun" under a bar; other labels as they are, cut to fit. */
const shortLabel = (label: string) => {
  const date = /^\w{3} (\d{1,2} \w{3})$/.exec(label);
  return date ? date[1] : label.length > 12 ? `${label.slice(0, 11)}…` : label;
};
