/**
 * How a page says what just happened, the same markup everywhere: good news is a polite status
 * (`notice notice--ok`), a failure an alert (`error`). Browser tests and assistive technology find them by
 * role, so the elements, classes and roles here must not drift.
 */
import type { ReactNode } from 'react';

/** Whether an operation worked, and what to say about it. */
export interface Result {
  ok: boolean;
  text: ReactNode;
}

/** One result as a paragraph, or nothing; `children` follow the text inside it (a request's reference, say). */
export function Outcome({ result, children }: { result: Result | null | undefined; children?: ReactNode }) {
  if (!result) return null;
  return (
    <p className={result.ok ? 'notice notice--ok' : 'error'} role={result.ok ? 'status' : 'alert'}>
      {result.text}
      {children}
    </p>
  );
}

/**
 * A polite live region that is always in the page (so changes in it are announced), holding the news:
 * `note` (good), `result` (either), then `children` (anything else the region announces), then `error`.
 */
export function LiveNotice({
  note,
  error,
  result,
  children,
}: {
  note?: ReactNode;
  error?: ReactNode;
  result?: Result | null;
  children?: ReactNode;
}) {
  return (
    <div aria-live="polite">
      {note && (
        <p className="notice notice--ok" role="status">
          {note}
        </p>
      )}
      <Outcome result={result} />
      {children}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
