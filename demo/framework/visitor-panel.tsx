// What the visitor gets, read from the provider's atoms with useStore, and the controls that set the provider's
// props.
import { useStore } from '@nanostores/react';
import type { JSX } from 'react';
import { useClient } from './client-context.js';

/** The provider props the controls drive. */
export interface VisitorSettings {
  mode: 'api' | 'bucketing';
  plan: 'free' | 'premium';
  consent: boolean;
}

/** One line of the exposure and hit log. */
export interface LogEntry {
  id: number;
  kind: string;
  time: string;
  text: string;
}

/** Decision mode, plan (the visitor context) and consent: each a prop of <feature-provider>. */
export const Controls = ({
  settings,
  onChange,
}: {
  settings: VisitorSettings;
  onChange: (settings: VisitorSettings) => void;
}): JSX.Element => (
  <section className="card controls" aria-labelledby="controls-title">
    <h2 id="controls-title">Visitor and SDK</h2>
    <fieldset>
      <legend>Decision mode</legend>
      {(['api', 'bucketing'] as const).map((mode) => (
        <label key={mode}>
          <input
            type="radio"
            name="mode"
            value={mode}
            checked={settings.mode === mode}
            onChange={() => onChange({ ...settings, mode })}
          />{' '}
          {mode === 'api' ? 'Decision API' : 'Bucketing'}
        </label>
      ))}
    </fieldset>
    <fieldset>
      <legend>Context</legend>
      <label htmlFor="plan">Plan</label>{' '}
      <select
        id="plan"
        value={settings.plan}
        onChange={(event) =>
          onChange({ ...settings, plan: event.target.value === 'premium' ? 'premium' : 'free' })
        }
      >
        <option value="free">free</option>
        <option value="premium">premium</option>
      </select>
    </fieldset>
    <fieldset>
      <legend>Privacy</legend>
      <label>
        <input
          type="checkbox"
          checked={settings.consent}
          onChange={(event) => onChange({ ...settings, consent: event.target.checked })}
        />{' '}
        The visitor consents to tracking
      </label>
    </fieldset>
  </section>
);

/** The variation of the button test, the statuses, every flag, and the log. */
export const VisitorState = ({ log }: { log: readonly LogEntry[] }): JSX.Element => {
  const client = useClient();
  const flags = useStore(client.$flags);
  const ready = useStore(client.$ready);
  const flagStatus = useStore(client.$flagStatus);
  const status = useStore(client.$status);
  const button = flags.get('btnText');
  const color = flags.get('btnColor')?.value;
  return (
    <section className="card" aria-labelledby="state-title">
      <h2 id="state-title">What the visitor gets</h2>
      <p className="variation" aria-live="polite">
        {button === undefined ? (
          ready ? (
            'Not in the button A/B test: the defaults are shown.'
          ) : (
            'Waiting for flags…'
          )
        ) : (
          <>
            {button.metadata.campaignName}: variation <strong>{button.metadata.variationName}</strong> (
            <span
              className="swatch"
              style={{ background: typeof color === 'string' ? color : 'transparent' }}
            />{' '}
            {typeof color === 'string' ? color : 'no color'}, “
            {typeof button.value === 'string' ? button.value : JSON.stringify(button.value)}”)
          </>
        )}
      </p>
      <p className="muted">
        SDK {status} · flags {flagStatus.status} ({flagStatus.reason}) · ready {ready ? 'yes' : 'no'}
      </p>
      <table>
        <caption className="muted">
          Flags (<code>useStore(client.$flags)</code>)
        </caption>
        <thead>
          <tr>
            <th scope="col">Flag</th>
            <th scope="col">Value</th>
            <th scope="col">Campaign / variation</th>
          </tr>
        </thead>
        <tbody>
          {[...flags].map(([key, { value, metadata }]) => (
            <tr key={key}>
              <td>{key}</td>
              <td>{JSON.stringify(value)}</td>
              <td>
                {metadata.campaignName} / {metadata.variationName}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 id="log-title">Exposures and hits</h3>
      <ol className="log" aria-labelledby="log-title" aria-live="polite" tabIndex={0}>
        {log.map((entry) => (
          <li key={entry.id}>
            <span className="kind">{entry.kind}</span>
            <span className="time">{entry.time}</span>
            <span>{entry.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
};
