import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';
import { useSession } from '../session';

type FormName = 'start' | 'confirm' | 'renew' | 'off';
type Stage = { step: 'idle' } | { step: 'scanning'; secret: string; qrCodeSvg: string } | { step: 'codes'; recoveryCodes: string[] };

/** The password (or code) a form of this section sends. */
const typed = (event: FormEvent<HTMLFormElement>, name: string) => String(new FormData(event.currentTarget).get(name));

/**
 * *Two-step sign-in*: turn it on (the password, then the app's QR code or key and a first code,
 * then the recovery codes, shown once), make new recovery codes, or turn it off (the password).
 */
export function TwoStepSignIn() {
  const { user, refresh } = useSession();
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [failure, setFailure] = useState<{ form: FormName; errors: FormErrors }>();
  const [status, setStatus] = useState<string>();
  /** What the named form's last refusal said (its fields' and its own). */
  const errorsOf = (form: FormName): FormErrors => (failure?.form === form ? failure.errors : noErrors);

  /** Sends one of the section's forms; a refusal shows beside its field, in that form only. */
  const sending = (form: FormName, fields: readonly string[], work: (event: FormEvent<HTMLFormElement>) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus(undefined);
    try {
      await work(event);
      setFailure(undefined);
    } catch (error) {
      setFailure({ form, errors: formErrors(error, fields) });
    }
  };

  const start = sending('start', ['password'], async (event) => {
    const { secret, qrCodeSvg } = await unwrap(api.POST('/api/me/two-factor', { body: { password: typed(event, 'password') } }));
    setStage({ step: 'scanning', secret, qrCodeSvg });
  });
  const confirm = sending('confirm', ['code'], async (event) => {
    const { recoveryCodes } = await unwrap(api.POST('/api/me/two-factor/confirm', { body: { code: typed(event, 'code') } }));
    setStage({ step: 'codes', recoveryCodes });
    await refresh();
  });
  const renewCodes = sending('renew', ['password'], async (event) => {
    const { recoveryCodes } = await unwrap(api.POST('/api/me/two-factor/recovery-codes', { body: { password: typed(event, 'password') } }));
    setStage({ step: 'codes', recoveryCodes });
  });
  const turnOff = sending('off', ['password'], async (event) => {
    await unwrap(api.DELETE('/api/me/two-factor', { body: { password: typed(event, 'password') } }));
    setStage({ step: 'idle' });
    setStatus('Two-step sign-in is off: your password alone signs you in.');
    await refresh();
  });

  if (!user) return null;
  return (
    <section aria-label="Two-step sign-in">
      <h2>Two-step sign-in</h2>
      {stage.step === 'codes' && (
        <div role="region" aria-label="Recovery codes">
          <p>Two-step sign-in is on. Keep these recovery codes somewhere safe: each signs you in once in place of a code, if your phone is gone. They are not shown again.</p>
          <ul className="recovery-codes">
            {stage.recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setStage({ step: 'idle' })}>
            I have kept them
          </button>
        </div>
      )}
      {stage.step === 'scanning' && (
        <>
          <p>Scan this with your authenticator app, or enter the key by hand; then type the code it shows.</p>
          <img className="qr-code" alt="QR code for your authenticator app" src={`data:image/svg+xml;utf8,${encodeURIComponent(stage.qrCodeSvg)}`} />
          <p>
            Key: <code aria-label="Key for your authenticator app">{stage.secret}</code>
          </p>
          <SubmitForm label="Confirm two-step sign-in" className="account" submitLabel="Confirm" formError={errorsOf('confirm').form} onSubmit={confirm}>
            <Field label="Code" name="code" autoComplete="one-time-code" inputMode="numeric" error={errorsOf('confirm').fields.code} />
          </SubmitForm>
        </>
      )}
      {stage.step === 'idle' && !user.twoFactorEnabled && (
        <>
          <p className="muted">Signing in then asks for a code from an authenticator app on your phone as well as your password.</p>
          <SubmitForm label="Turn on two-step sign-in" className="account" submitLabel="Turn on" formError={errorsOf('start').form} status={status} onSubmit={start}>
            <Field label="Password" name="password" type="password" autoComplete="current-password" error={errorsOf('start').fields.password} />
          </SubmitForm>
        </>
      )}
      {stage.step === 'idle' && user.twoFactorEnabled && (
        <>
          <p>Two-step sign-in is on: signing in asks for a code from your authenticator app.</p>
          <SubmitForm label="New recovery codes" className="account" submitLabel="Make new codes" formError={errorsOf('renew').form} onSubmit={renewCodes}>
            <Field label="Password" name="password" type="password" autoComplete="current-password" error={errorsOf('renew').fields.password} />
          </SubmitForm>
          <SubmitForm label="Turn off two-step sign-in" className="account" submitLabel="Turn off" danger formError={errorsOf('off').form} onSubmit={turnOff}>
            <Field label="Password" name="password" type="password" autoComplete="current-password" error={errorsOf('off').fields.password} />
          </SubmitForm>
        </>
      )}
    </section>
  );
}
