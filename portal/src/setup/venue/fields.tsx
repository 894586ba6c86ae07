/**
 * The small form kit of the venue settings: labelled fields over plain inputs (their state is the text
 * as typed, so a refused save keeps it), a toggle, and a section form with its own Save and the
 * server's answer in words.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Checkbox } from 'react-aria-components';
import { LiveNotice } from '../../shell/Notice';
import { messageOf } from './data';

interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  disabled?: boolean;
}

function Hint({ id, hint }: { id: string; hint?: string }) {
  return hint ? (
    <small id={id} className="muted">
      {hint}
    </small>
  ) : null;
}

export function TextInput(
  props: FieldProps & { type?: 'text' | 'email' | 'tel' | 'url' | 'time'; maxLength?: number; required?: boolean; autoComplete?: string },
) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        maxLength={props.maxLength}
        required={props.required}
        autoComplete={props.autoComplete ?? 'off'}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <Hint id={`${id}-hint`} hint={props.hint} />
    </div>
  );
}

export function TextBox(props: FieldProps & { maxLength?: number; rows?: number; required?: boolean }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        rows={props.rows ?? 3}
        value={props.value}
        maxLength={props.maxLength}
        required={props.required}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <Hint id={`${id}-hint`} hint={props.hint} />
    </div>
  );
}

export function NumberInput(props: FieldProps & { min?: number; max?: number; step?: number; unit?: string }) {
  const id = useId();
  return (
    <div className="field field--number">
      <label htmlFor={id}>{props.label}</label>
      <span className="field__with-unit">
        {props.unit === '£' && <span aria-hidden="true">£</span>}
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          value={props.value}
          disabled={props.disabled}
          aria-describedby={props.hint ? `${id}-hint` : undefined}
          onChange={(e) => props.onChange(e.target.value)}
        />
        {props.unit && props.unit !== '£' && <span>{props.unit}</span>}
      </span>
      <Hint id={`${id}-hint`} hint={props.hint} />
    </div>
  );
}

export function Choice(props: FieldProps & { options: readonly (readonly [string, string])[] }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <Hint id={`${id}-hint`} hint={props.hint} />
    </div>
  );
}

export function Toggle(props: { label: string; value: boolean; onChange: (value: boolean) => void; disabled?: boolean }) {
  return (
    <Checkbox isSelected={props.value} onChange={props.onChange} isDisabled={props.disabled} className="checkbox">
      <span className="checkbox__box" aria-hidden="true" />
      {props.label}
    </Checkbox>
  );
}

/** A number as typed, or null for an empty field; NaN when it is not a number. */
export const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));
/** Pounds as typed into whole pence, or null for an empty field. */
export const penceOrNull = (text: string) => (text.trim() === '' ? null : Math.round(Number(text) * 100));
export const poundsText = (pence: number | null) => (pence === null ? '' : (pence / 100).toFixed(2));
export const text = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));

/**
 * One section of the settings page as a form: its heading (an anchor the checklist links to), its
 * fields, and a Save that sends what `save` returns; the answer is shown beneath in words.
 */
export function SectionForm(props: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  save: () => Promise<void>;
  /** The role may not change it: no Save. */
  disabled?: boolean;
  /** Its values are still loading: Save shown but not yet usable (so nothing moves when they arrive). */
  loading?: boolean;
  saveLabel?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      await props.save();
      setResult({ ok: true, text: `${props.title}: saved.` });
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form id={props.id} className="panel setup__panel setup-form" aria-labelledby={`${props.id}-title`} onSubmit={(e) => void submit(e)}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.intro && <p className="muted">{props.intro}</p>}
      <fieldset className="setup-form__fields" disabled={props.disabled || props.loading}>
        {props.children}
      </fieldset>
      {!props.disabled && (
        <div className="actions">
          <Button type="submit" className="button button--primary" isDisabled={busy || props.loading}>
            {props.saveLabel ?? `Save ${props.title.toLowerCase()}`}
          </Button>
        </div>
      )}
      <LiveNotice result={result} />
    </form>
  );
}

/** A field the number check refuses before anything is sent. */
export function requireNumber(value: number | null, label: string): number | null {
  if (value !== null && !Number.isFinite(value)) throw new Error(`${label} must be a number.`);
  return value;
}
