/**
 * What the setup screens share: a labelled field, an error in words (with the request's reference), a
 * save that reports the server's refusal and refetches, a section of items with edit and delete, and a
 * days-of-week picker. Forms keep what was typed when the server refuses it.
 */
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { ApiError } from '../../api/client';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export const DAY_NAMES: Record<string, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export interface Failure {
  text: string;
  ref?: string;
}

/** A value the form can tell is wrong before asking the server. */
export class FormError extends Error {}

export const failureOf = (caught: unknown): Failure =>
  caught instanceof ApiError
    ? { text: caught.message, ref: caught.requestId }
    : caught instanceof FormError
      ? { text: caught.message }
      : { text: 'Could not reach the server' };

export function ErrorNote({ failure }: { failure: Failure | null }) {
  if (!failure) return null;
  return (
    <p className="error" role="alert">
      {failure.text}
      {failure.ref && <span className="toast__ref"> Ref: {failure.ref}</span>}
    </p>
  );
}

/** Pence as pounds for people (`£12.50`, `£12`). */
export const pounds = (pence: number) => `£${(pence / 100).toFixed(2).replace(/\.00$/, '')}`;
/** A typed pounds amount (`12.50`) as whole pence. */
export function pence(text: string, label: string): number {
  if (!/^\s*\d+(\.\d{1,2})?\s*$/.test(text)) throw new FormError(`${label} must be an amount in pounds, such as 12.50`);
  return Math.round(Number(text) * 100);
}
/** `''` → null, else the whole number typed. */
export function intOrNull(text: string, label: string): number | null {
  if (text.trim() === '') return null;
  if (!/^\s*\d+\s*$/.test(text)) throw new FormError(`${label} must be a whole number`);
  return Number(text);
}

/**
 * A save: runs the request, refetches `keys` on success and calls `done`; a refusal is kept to be shown
 * (the form keeps its values).
 */
export function useSave(keys: QueryKey[]) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  async function run(request: () => Promise<unknown>, done?: () => void) {
    setBusy(true);
    setFailure(null);
    try {
      await request();
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
      done?.();
      return true;
    } catch (caught) {
      setFailure(failureOf(caught));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, failure, run, clear: () => setFailure(null) };
}

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

export function Field(props: { label: string; value: string; onChange: (value: string) => void; short?: boolean } & InputProps) {
  const { label, value, onChange, short, ...rest } = props;
  const id = useId();
  return (
    <div className={short ? 'field field--short' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </div>
  );
}

export function Choice(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [string, string])[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="setup-check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

export function DaysPicker(props: { legend: string; days: string[]; onChange: (days: string[]) => void }) {
  return (
    <fieldset className="setup-days">
      <legend>{props.legend}</legend>
      {DAYS.map((day) => (
        <label key={day} className="setup-check">
          <input
            type="checkbox"
            checked={props.days.includes(day)}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? DAYS.filter((d) => d === day || props.days.includes(d)) : props.days.filter((d) => d !== day),
              )
            }
          />
          <abbr title={DAY_NAMES[day]}>{day.slice(0, 1).toUpperCase() + day.slice(1)}</abbr>
        </label>
      ))}
    </fieldset>
  );
}

/** A form's frame: its fields, the server's refusal, save and cancel. */
export function SetupForm(props: {
  label: string;
  busy: boolean;
  failure: Failure | null;
  submitText: string;
  onSubmit: () => void;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="setup-form"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <ErrorNote failure={props.failure} />
      <div className="setup-form__actions">
        <button type="submit" className="button button--primary" disabled={props.busy}>
          {props.busy ? 'Saving…' : props.submitText}
        </button>
        {props.onCancel && (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * A list of a resource's items, each with Edit (the same form, filled in) and Delete (asked twice), and
 * a "New" button that opens an empty form. Without write permission only the list is shown.
 */
export function ItemList<T extends { id: string }>(props: {
  title: string;
  noun: string;
  items: T[] | undefined;
  loading?: boolean;
  canWrite: boolean;
  nameOf: (item: T) => string;
  describe: (item: T) => ReactNode;
  form: (item: T | null, close: () => void) => ReactNode;
  remove: (item: T) => Promise<unknown>;
  keys: QueryKey[];
  intro?: ReactNode;
  extra?: (item: T) => ReactNode;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const save = useSave(props.keys);
  const headingId = useId();
  return (
    <section className="setup-section" aria-labelledby={headingId}>
      <div className="setup-section__head">
        <h2 id={headingId}>{props.title}</h2>
        {props.canWrite && editing !== 'new' && (
          <button type="button" className="button" onClick={() => setEditing('new')}>
            New {props.noun}
          </button>
        )}
      </div>
      {props.intro}
      {editing === 'new' && props.form(null, () => setEditing(null))}
      {props.loading && <p className="muted">Loading…</p>}
      {props.items && props.items.length === 0 && editing !== 'new' && <p className="muted">None yet.</p>}
      <ErrorNote failure={save.failure} />
      <ul className="setup-list">
        {props.items?.map((item) => (
          <li key={item.id} className="setup-item">
            {editing === item.id ? (
              props.form(item, () => setEditing(null))
            ) : (
              <>
                <div className="setup-item__main">
                  <strong>{props.nameOf(item)}</strong>
                  <div className="setup-item__desc">{props.describe(item)}</div>
                </div>
                {props.canWrite && (
                  <div className="setup-item__actions">
                    {props.extra?.(item)}
                    <button type="button" className="button" onClick={() => setEditing(item.id)} aria-label={`Edit ${props.nameOf(item)}`}>
                      Edit
                    </button>
                    {confirming === item.id ? (
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={save.busy}
                        onClick={() =>
                          void save.run(
                            () => props.remove(item),
                            () => setConfirming(null),
                          )
                        }
                      >
                        Really delete {props.nameOf(item)}
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="button button--danger"
                        onClick={() => setConfirming(item.id)}
                        aria-label={`Delete ${props.nameOf(item)}`}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
