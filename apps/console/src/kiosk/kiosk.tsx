import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { refusedField, type RefusalBody } from '@platform/sync-client';
import { api, ApiError, unwrap } from '../api/client';
import { Field } from '../components/field';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { pickLanguage, translate, type Translation } from './kiosk-language';
import { KIOSK_LANGUAGES, kioskTexts, nameRuleWords } from './kiosk-texts';
import { KioskVisitors, type KioskVisitor } from './kiosk-visitors';
import './kiosk.css';

type Setup = Awaited<ReturnType<typeof loadSetup>>;

const loadSetup = (projectId: string, applicationId: string) => unwrap(api.GET('/api/projects/{projectId}/visitors/kiosks/{applicationId}', { params: { path: { projectId, applicationId } } }));

/** Every language some text of the widget has, and those the kiosk's own words come in. */
function languagesOf(setup: Setup): Set<string> {
  const { deletionPeriods, scannerEnabled: _scanner, ...texts } = setup.configuration;
  const translations: Translation[] = [...Object.values(texts), ...deletionPeriods.map((period) => period.label)];
  return new Set([...Object.keys(KIOSK_LANGUAGES), ...translations.flatMap((text) => Object.keys(text))]);
}

/** The data field a visitors 400 names (`data.name`) and what it says of it (`must NOT have more than 40 characters`), if any. */
function invalidField(error: unknown): ReturnType<typeof refusedField> {
  return error instanceof ApiError ? refusedField(error.details as RefusalBody['details']) : undefined;
}

/**
 * The public check-in page of an application's CheckIn widget: its texts in the browser's
 * language, the deletion periods with the default chosen, check-in, and check-out of the
 * visitors checked in here. Only the public visitors API is called; each visitor's secret stays
 * in this browser.
 */
export default function Kiosk({ projectId, applicationId }: { projectId: string; applicationId: string }) {
  const setup = useLoad(() => loadSetup(projectId, applicationId), `${projectId}/${applicationId}`);
  if (!setup.value) {
    return (
      <main className="kiosk">
        {setup.error ? <LoadError error={setup.error} /> : <p className="loading">…</p>}
      </main>
    );
  }
  return <CheckInPage projectId={projectId} applicationId={applicationId} setup={setup.value} />;
}

function CheckInPage({ projectId, applicationId, setup }: { projectId: string; applicationId: string; setup: Setup }) {
  const language = useMemo(() => pickLanguage(languagesOf(setup), navigator.languages), [setup]);
  const words = kioskTexts(language);
  const text = (translation: Translation | undefined) => translate(translation, language);
  const { configuration } = setup;
  const title = text(configuration.title) ?? words.title;
  const store = useMemo(() => new KioskVisitors(localStorage, projectId, applicationId), [projectId, applicationId]);
  const [visitors, setVisitors] = useState<KioskVisitor[]>(() => store.list());
  const [message, setMessage] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const formElement = useRef<HTMLFormElement>(null);
  const focusName = () => (formElement.current?.elements.namedItem('name') as HTMLInputElement | null)?.focus();
  const defaultPeriod = (configuration.deletionPeriods.find((period) => period.isDefault) ?? configuration.deletionPeriods[0])?.duration;

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = title;
  }, [language, title]);

  // Without an event type the widget records arrivals only: nothing to check out, so nothing is kept.
  const eventCollectionName = setup.eventCollectionName;
  const addEvent = (collectionName: string, visitor: KioskVisitor, eventType: 'checkIn' | 'checkOut') =>
    unwrap(
      api.POST('/api/projects/{projectId}/visitors/{visitorId}/events', {
        params: { path: { projectId, visitorId: visitor.id }, header: { 'x-visitor-secret': visitor.secret } },
        body: { collectionName, data: { eventType } },
      }),
    );

  const checkIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    const name = String(values.get('name') ?? '').trim();
    const duration = Number(values.get('deletionPeriod'));
    setFormError(undefined);
    if (!name) {
      setNameError(words.nameMissing);
      focusName();
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      const created = await unwrap(
        api.POST('/api/projects/{projectId}/visitors', { params: { path: { projectId } }, body: { collectionName: setup.visitorCollectionName, data: { name }, deletionPeriod: duration } }),
      );
      const visitor: KioskVisitor = { id: created.id, secret: created.secret, name, deleteOn: Date.now() + duration };
      if (eventCollectionName) {
        store.add(visitor);
        await addEvent(eventCollectionName, visitor, 'checkIn');
      }
      setVisitors(store.list());
      setMessage(text(configuration.successSignInMessage) ?? words.checkedIn(name));
      form.reset();
      focusName();
    } catch (error) {
      const invalid = invalidField(error);
      const whole = error instanceof Error ? error.message : String(error);
      // A visitor reads why their name was refused in the kiosk's language, not the API's message with its field path.
      const reason = (invalid?.rule && nameRuleWords(words, invalid.rule)) ?? invalid?.fieldMessage;
      if (invalid?.field === 'data.name' || invalid?.field === 'data') setNameError(reason ? words.nameRefused(reason) : whole);
      else setFormError(whole);
    } finally {
      setBusy(false);
    }
  };

  const checkOut = async (collectionName: string, visitor: KioskVisitor) => {
    setFormError(undefined);
    setBusy(true);
    try {
      await addEvent(collectionName, visitor, 'checkOut');
      setMessage(text(configuration.successSignOutMessage) ?? words.checkedOut(visitor.name));
      store.remove(visitor.id);
    } catch (error) {
      // Erased by retention or deleted meanwhile: its secret opens nothing any more.
      if (error instanceof ApiError && error.status === 404) {
        store.remove(visitor.id);
        setMessage(words.alreadyGone(visitor.name));
      } else setFormError(error instanceof Error ? error.message : String(error));
    } finally {
      setVisitors(store.list());
      setBusy(false);
      focusName();
    }
  };

  return (
    <main className="kiosk" lang={language}>
      <h1>{title}</h1>
      {configuration.description && <p className="kiosk-description">{text(configuration.description)}</p>}
      <p role="status" className="kiosk-message">
        {message}
      </p>
      <form ref={formElement} onSubmit={(event) => void checkIn(event)} className="kiosk-form" noValidate aria-label={words.checkIn}>
        <Field label={words.name} name="name" autoComplete="off" autoFocus error={nameError} />
        <fieldset className="kiosk-periods">
          <legend>{words.keepFor}</legend>
          {configuration.deletionPeriods.map((period) => (
            <label key={period.duration}>
              <input type="radio" name="deletionPeriod" value={period.duration} defaultChecked={period.duration === defaultPeriod} />
              {text(period.label)}
            </label>
          ))}
        </fieldset>
        {formError && (
          <p role="alert" className="form-error">
            {formError}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {words.checkIn}
        </button>
      </form>
      {eventCollectionName && (
        <section aria-labelledby="kiosk-checked-in" className="kiosk-visitors">
          <h2 id="kiosk-checked-in">{words.checkedInHere}</h2>
          {visitors.length === 0 ? (
            <p>{words.nobodyCheckedIn}</p>
          ) : (
            <ul aria-labelledby="kiosk-checked-in">
              {visitors.map((visitor) => (
                <li key={visitor.id}>
                  <span>{visitor.name}</span>
                  <button type="button" disabled={busy} onClick={() => void checkOut(eventCollectionName, visitor)}>
                    {words.checkOut}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {configuration.smallPrint && <p className="kiosk-small-print">{text(configuration.smallPrint)}</p>}
    </main>
  );
}
