/**
 * A destructive action asked twice: the first press arms the button ("Really …"), the second does it.
 */
export function ConfirmButton(props: {
  /** Whether the first press happened (the parent keeps which row is armed). */
  armed: boolean;
  busy: boolean;
  onArm: () => void;
  onConfirm: () => void;
  /** The button's text, and its accessible name naming what it acts on. */
  label: string;
  ariaLabel: string;
  /** The armed button's text. */
  confirmLabel: string;
}) {
  return props.armed ? (
    <button type="button" className="button button--danger" disabled={props.busy} onClick={props.onConfirm}>
      {props.confirmLabel}
    </button>
  ) : (
    <button type="button" className="button button--danger" onClick={props.onArm} aria-label={props.ariaLabel}>
      {props.label}
    </button>
  );
}
