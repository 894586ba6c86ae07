/**
 * The side panel: the selected table's number, seats, shape, size, turn and area (each field saved when
 * it is left or Enter is pressed, so one edit is one undo step), several selected tables combined, and
 * the floor's combinations.
 */
import { useState } from 'react';
import { Button, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, TextField } from 'react-aria-components';
import { MAX_SIDE, MIN_SIDE, rotate } from './geometry';
import { comboName, type PlanDoc, type PlanTable } from './model';

interface Area {
  id: string;
  name: string;
}

/** A text field that keeps what is typed and applies it on leaving or Enter; `check` names what is wrong. */
function DraftField(props: {
  label: string;
  value: string;
  type?: string;
  check: (value: string) => string | null;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState(props.value);
  const [seen, setSeen] = useState(props.value);
  if (seen !== props.value) {
    setSeen(props.value);
    setDraft(props.value);
  }
  const problem = draft === props.value ? null : props.check(draft);
  const commit = () => {
    if (draft !== props.value && !problem) props.onCommit(draft);
  };
  return (
    <TextField
      className="field fp-field"
      value={draft}
      onChange={setDraft}
      onBlur={commit}
      onKeyDown={(event) => event.key === 'Enter' && commit()}
      isInvalid={problem !== null}
      type={props.type}
    >
      <Label>{props.label}</Label>
      <Input />
      <FieldError className="fp-field__error">{problem}</FieldError>
    </TextField>
  );
}

const whole = (min: number, max: number) => (value: string) =>
  /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? null : `A whole number from ${min} to ${max}`;

export function Inspector(props: {
  doc: PlanDoc;
  selected: string[];
  areas: Area[];
  /** Numbers of the venue's tables on other floors (a number names one table in the venue). */
  numbersElsewhere: Set<string>;
  onChange: (key: string, change: Partial<PlanTable>) => void;
  onDelete: (key: string) => void;
  onCombine: (name: string) => void;
  onRemoveCombo: (index: number) => void;
}) {
  const chosen = props.doc.tables.filter((t) => props.selected.includes(t.key));
  const table = chosen.length === 1 ? chosen[0] : undefined;
  const [comboDraft, setComboDraft] = useState<string | null>(null);
  const defaultCombo = comboName(props.doc, props.selected);
  const numberCheck = (value: string) => {
    const v = value.trim();
    if (!v) return 'A table needs a number';
    if (v.length > 50) return 'At most 50 characters';
    if (props.doc.tables.some((t) => t.number === v && t.key !== table?.key) || props.numbersElsewhere.has(v))
      return `Table ${v} already exists`;
    return null;
  };

  return (
    <aside className="fp-panel" aria-label="Selection">
      {chosen.length === 0 && <p className="muted">Select a table to edit it; Shift-click (or Shift+Enter) to select several.</p>}
      {table && (
        <section aria-labelledby="fp-table-heading">
          <h2 id="fp-table-heading">Table {table.number}</h2>
          <DraftField
            label="Number"
            value={table.number}
            check={numberCheck}
            onCommit={(v) => props.onChange(table.key, { number: v.trim() })}
          />
          <div className="fp-pair">
            <DraftField
              label="Min seats"
              value={String(table.minCovers)}
              check={(v) => whole(1, 1000)(v) ?? (Number(v) > table.maxCovers ? 'No more than max seats' : null)}
              onCommit={(v) => props.onChange(table.key, { minCovers: Number(v) })}
            />
            <DraftField
              label="Max seats"
              value={String(table.maxCovers)}
              check={(v) => whole(1, 1000)(v) ?? (Number(v) < table.minCovers ? 'No fewer than min seats' : null)}
              onCommit={(v) => props.onChange(table.key, { maxCovers: Number(v) })}
            />
          </div>
          <div className="fp-pair">
            <DraftField
              label="Width"
              value={String(table.width)}
              check={whole(MIN_SIDE, MAX_SIDE)}
              onCommit={(v) => props.onChange(table.key, { width: Number(v) })}
            />
            <DraftField
              label="Height"
              value={String(table.height)}
              check={whole(MIN_SIDE, MAX_SIDE)}
              onCommit={(v) => props.onChange(table.key, { height: Number(v) })}
            />
          </div>
          <Select
            className="field fp-field"
            selectedKey={table.shape}
            onSelectionChange={(key) => props.onChange(table.key, { shape: String(key) })}
          >
            <Label>Shape</Label>
            <Button className="button">
              <SelectValue />
              <span aria-hidden="true"> ▾</span>
            </Button>
            <Popover>
              <ListBox className="menu">
                <ListBoxItem id="rect" className="menu__item">
                  Rectangle
                </ListBoxItem>
                <ListBoxItem id="round" className="menu__item">
                  Round
                </ListBoxItem>
              </ListBox>
            </Popover>
          </Select>
          <Select
            className="field fp-field"
            selectedKey={table.areaId ?? 'none'}
            onSelectionChange={(key) => props.onChange(table.key, { areaId: key === 'none' ? null : String(key) })}
          >
            <Label>Seating area</Label>
            <Button className="button">
              <SelectValue />
              <span aria-hidden="true"> ▾</span>
            </Button>
            <Popover>
              <ListBox className="menu" items={[{ id: 'none', name: 'No area' }, ...props.areas]}>
                {(area) => (
                  <ListBoxItem id={area.id} className="menu__item">
                    {area.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
          <p className="fp-rotation">
            <span>Turned {table.rotation}°</span>
            <Button className="button" onPress={() => props.onChange(table.key, { rotation: rotate(table.rotation, -15) })}>
              Turn left
            </Button>
            <Button className="button" onPress={() => props.onChange(table.key, { rotation: rotate(table.rotation, 15) })}>
              Turn right
            </Button>
          </p>
          <Button className="button button--danger" onPress={() => props.onDelete(table.key)}>
            Delete table…
          </Button>
        </section>
      )}
      {chosen.length > 1 && (
        <section aria-labelledby="fp-combine-heading">
          <h2 id="fp-combine-heading">{chosen.length} tables selected</h2>
          <TextField className="field fp-field" value={comboDraft ?? defaultCombo} onChange={setComboDraft}>
            <Label>Combination name</Label>
            <Input />
          </TextField>
          <Button
            className="button button--primary"
            isDisabled={!(comboDraft ?? defaultCombo).trim()}
            onPress={() => {
              props.onCombine((comboDraft ?? defaultCombo).trim());
              setComboDraft(null);
            }}
          >
            Combine
          </Button>
        </section>
      )}
      <section aria-labelledby="fp-combos-heading">
        <h2 id="fp-combos-heading">Combinations</h2>
        {props.doc.combos.length === 0 && <p className="muted">None on this floor.</p>}
        <ul className="fp-list">
          {props.doc.combos.map((combo, index) => (
            <li key={`${combo.name}-${combo.tables.join()}`}>
              <span>
                {combo.name} ({combo.tables.reduce((sum, key) => sum + (props.doc.tables.find((t) => t.key === key)?.maxCovers ?? 0), 0)}{' '}
                seats)
              </span>
              <Button
                className="button button--quiet"
                aria-label={`Remove combination ${combo.name}`}
                onPress={() => props.onRemoveCombo(index)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
