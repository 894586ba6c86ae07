/**
 * Invitations (an extension: docs/portal-api.md): invite someone by email with a role the caller may
 * give, instead of choosing their first password for them; the invitation's link lets them choose
 * their own. Pending invitations are listed with who sent them and when they lapse, and can be revoked
 * (not one to a role beyond the caller's own: only an Owner revokes that, as only an Owner removes its holder).
 */
import { useId, useState } from 'react';
import { Button, Dialog, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, call } from '../api/client';
import { Choice, ErrorNote, Field, FormError, useSave } from '../setup/availability/kit';
import { beyondCaller, teamKey, useInvitations, type Permissions, type PortalUser, type Role } from './data';
import { ConfirmButton } from './ConfirmButton';

const when = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The "Invite by email" button and its dialog. */
export function InviteByEmail(props: { me: Permissions; roles: Role[] | undefined }) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <>
      <Button className="button" onPress={() => setOpen(true)}>
        Invite by email
      </Button>
      {sent && (
        <p className="visually-hidden" role="status">
          Invitation sent to {sent}
        </p>
      )}
      {open && (
        <InviteDialog
          {...props}
          onClose={() => setOpen(false)}
          onSent={(email) => {
            setSent(email);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function InviteDialog(props: { me: Permissions; roles: Role[] | undefined; onClose: () => void; onSent: (email: string) => void }) {
  const { me, roles } = props;
  const giveable = (roles ?? []).filter((r) => !beyondCaller(me, r));
  const withheld = (roles ?? []).length - giveable.length;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState(giveable.find((r) => !r.is_system)?.id ?? '');
  const save = useSave([teamKey('invitations')]);
  const titleId = useId();

  const submit = () =>
    save.run(
      () => {
        if (!roleId) throw new FormError('Choose a role');
        return call(api.POST('/api/my-users/invitations', { body: { name: name.trim(), email: email.trim(), role_id: roleId } }));
      },
      () => props.onSent(email.trim()),
    );

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog aria-labelledby={titleId}>
          <Heading slot="title" id={titleId}>
            Invite by email
          </Heading>
          <p className="muted">
            They get an email with a link, good for 7 days, to choose their own password and sign in with the role you pick.
          </p>
          <Form
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Field label="Name" value={name} onChange={setName} required maxLength={200} autoComplete="off" autoFocus />
            <Field label="Email" type="email" value={email} onChange={setEmail} required maxLength={254} autoComplete="off" />
            <Choice
              label="Role"
              value={roleId}
              onChange={setRoleId}
              options={[['', 'Choose a role…'] as const, ...giveable.map((r) => [r.id, r.name] as const)]}
            />
            {withheld > 0 && (
              <p className="team-grid__why">
                {withheld} role{withheld === 1 ? ' is' : 's are'} not offered: only an Owner can give a role that reaches beyond your own.
              </p>
            )}
            <ErrorNote failure={save.failure} />
            <div className="setup-form__actions">
              <Button type="submit" className="button button--primary" isDisabled={save.busy}>
                {save.busy ? 'Sending…' : 'Send invitation'}
              </Button>
              <Button className="button" onPress={props.onClose}>
                Cancel
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** The account's pending invitations, each revocable by whoever may manage a user with its role. */
export function PendingInvitations(props: {
  me: Permissions;
  canWrite: boolean;
  roles: Role[] | undefined;
  users: PortalUser[] | undefined;
}) {
  const { me, canWrite, roles, users } = props;
  const invitations = useInvitations();
  const revoke = useSave([teamKey('invitations')]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const headingId = useId();
  if (!invitations.data?.length) return null;
  return (
    <section className="team-invitations" aria-labelledby={headingId}>
      <h3 id={headingId}>Pending invitations</h3>
      <ErrorNote failure={revoke.failure} />
      <ul className="setup-list">
        {invitations.data.map((invitation) => {
          const role = roles?.find((r) => r.id === invitation.role_id);
          const inviter = users?.find((u) => u.id === invitation.invited_by);
          const beyond = beyondCaller(me, role);
          return (
            <li key={invitation.id} className="setup-item">
              <div className="setup-item__main">
                <strong>{invitation.name}</strong>
                <span className="team-badge">Invited</span>
                <div className="setup-item__desc">
                  {invitation.email} · {role?.name ?? 'a role'} · sent {when(invitation.created_at)}
                  {inviter && <> by {inviter.name}</>} · link valid until {when(invitation.expires_at)}
                </div>
                {canWrite && beyond && (
                  <p className="team-note">Only an Owner can revoke this invitation: its role {beyond.replace(/^it /, '')}.</p>
                )}
              </div>
              {canWrite && !beyond && (
                <div className="setup-item__actions">
                  <ConfirmButton
                    armed={confirming === invitation.id}
                    busy={revoke.busy}
                    onArm={() => setConfirming(invitation.id)}
                    onConfirm={() =>
                      void revoke.run(
                        () => call(api.DELETE('/api/my-users/invitations/{id}', { params: { path: { id: invitation.id } } })),
                        () => setConfirming(null),
                      )
                    }
                    label="Revoke"
                    ariaLabel={`Revoke the invitation of ${invitation.name}`}
                    confirmLabel="Really revoke"
                  />
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
