/** The two embed snippets of a widget (docs/widgets.md, "Embedding"), each with a copy button. */
import { useEffect, useState } from 'react';
import { Button, Label, TextArea, TextField } from 'react-aria-components';
import { KINDS, type Kind, type WidgetSettings } from './data';

type Widget = WidgetSettings['data'][Kind];

function Snippet({ id, label, hint, code }: { id: string; label: string; hint: string; code: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (copied !== 'yes') return;
    const timer = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="snippet">
      <TextField className="field" value={code} isReadOnly>
        <Label>{label}</Label>
        <span className="muted" id={`${id}-hint`}>
          {hint}
        </span>
        <TextArea
          rows={Math.min(8, Math.max(3, Math.ceil(code.length / 64)))}
          spellCheck={false}
          className="snippet__code"
          aria-describedby={`${id}-hint`}
        />
      </TextField>
      <div className="snippet__actions">
        <Button className="button" onPress={() => void copy()} aria-describedby={`${id}-copied`}>
          Copy {label.toLowerCase()}
        </Button>
        <span id={`${id}-copied`} role="status" className={copied === 'yes' ? 'copied' : 'muted'}>
          {copied === 'yes' && (
            <>
              <span aria-hidden="true">✓ </span>Copied
            </>
          )}
          {copied === 'failed' && 'Could not copy: select the code and copy it yourself.'}
        </span>
      </div>
    </div>
  );
}

export function Embed({ kind, widget }: { kind: Kind; widget: Widget }) {
  const label = KINDS.find((k) => k.key === kind)!.label.toLowerCase();
  return (
    <section className="panel branding__section" aria-labelledby="embed-title">
      <h2 id="embed-title">Embed the {label} widget</h2>
      {!widget.enabled && (
        <p className="notice">
          <span aria-hidden="true">⚠ </span>This widget is off: switch it on before guests can use it on your site.
        </p>
      )}
      <Snippet
        id="embed-loader"
        label="Script embed"
        hint="Recommended: sizes itself to the widget and falls back to a link if the widget cannot load."
        code={widget.embed.loader}
      />
      <Snippet
        id="embed-iframe"
        label="Iframe embed"
        hint="Needs no script, but cannot resize: 720 px tall, scrolling inside."
        code={widget.embed.iframe}
      />
      <p className="muted">
        Direct link: <a href={widget.url}>{widget.url}</a>
      </p>
    </section>
  );
}
