/** A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  /** Called with the input's text as the guest types. */
  onValue: (value: string) => void;
  error?: string | null;
  hint?: string;
  type?: 'text' | 'email' | 'tel' | 'password';
  autocomplete?: string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'email' | 'tel';
  required?: boolean;
}) {
  const { id, error, hint } = props;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class="mw-field">
      <label for={id}>{props.label}</label>
      {hint ? (
        <p class="mw-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        // Preact's input types are a union per `type`; one literal keeps the checker on one branch.
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        onInput={(event) => props.onValue((event.target as HTMLInputElement).value)}
        autocomplete={props.autocomplete}
        inputMode={props.inputMode}
        required={props.required}
        aria-required={props.required ? 'true' : undefined}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described}
      />
      {error ? (
        <p class="mw-field-error" id={`${id}-error`}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
