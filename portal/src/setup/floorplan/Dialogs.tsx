/** The editor's two dialogs: a name to type (new or renamed floor or area) and a yes-or-no confirmation. */
import { useState, type FormEvent } from 'react';
import { Button, Dialog, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';

export function NameDialog(props: {
  title: string;
  label: string;
  initial?: string;
  action: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('A name is needed');
    setBusy(true);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog>
          <Heading slot="title">{props.title}</Heading>
          <form onSubmit={(e) => void submit(e)}>
            <TextField className="field" value={name} onChange={setName} autoFocus maxLength={200}>
              <Label>{props.label}</Label>
              <Input />
            </TextField>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <div className="fp-actions">
              <Button className="button" onPress={props.onClose}>
                Cancel
              </Button>
              <Button type="submit" className="button button--primary" isDisabled={busy}>
                {props.action}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

export function ConfirmDialog(props: {
  title: string;
  text: string;
  action: string;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    try {
      await props.onConfirm();
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog role="alertdialog">
          <Heading slot="title">{props.title}</Heading>
          <p>{props.text}</p>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div className="fp-actions">
            <Button className="button" onPress={props.onClose} autoFocus>
              Cancel
            </Button>
            <Button className="button button--danger" onPress={() => void confirm()}>
              {props.action}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
