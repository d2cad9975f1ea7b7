// The campaign editor inside the whole console (<console-app> over a fetch double): what a save or a state change
// did is said where it covers nothing. After each action, as the user sees the page (the button they pressed
// scrolled into view), every notice on screen (the shell's floating notice included, when it shows) is compared by
// bounding box with every input, button and message of the page: none may overlap. A pause or a resume offers
// Undo in its notice, through the same toggle route; an interruption, confirmed first, offers none.
import { assert } from '@open-wc/testing';
import '../../../server/console/src/shell/console-app.js';
import type { CampaignEditor } from '../../../server/console/src/campaigns/campaign-editor.js';
import type { ConsoleApp } from '../../../server/console/src/shell/console-app.js';
import { ACCOUNT, ENV, answerConfirm, campaignOf, must, typeInto, until } from '../console-fixture.js';

const CAMPAIGN = campaignOf();
const CREATED = campaignOf({ id: 'camp-9', name: 'Banner', slug: 'banner' });
const LIST = (items: unknown[]) => ({
  items,
  current_items_count: items.length,
  current_page: 1,
  total_count: items.length,
  items_per_page: 100,
  last_page: 1,
});

/** A fetch double answering the console's routes by `METHOD path`; anything else is a 404. */
const serve = () => {
  const made: string[] = [];
  /** The body of each request that had one, with its `METHOD path`. */
  const bodies: Array<[string, unknown]> = [];
  const answers: Record<string, (body: unknown) => unknown> = {
    'GET /admin/session': () => ({ csrf_token: 'csrf', expires_at: '2026-12-01T00:00:00.000Z' }),
    'GET /admin/v1/accounts': () => ({ items: [ACCOUNT] }),
    'GET /admin/v1/accounts/acc-1/environments': () => ({ items: [ENV] }),
    'GET /admin/v1/environments/env-1/campaigns?_page=1&_max_per_page=100': () => LIST([CAMPAIGN, CREATED]),
    'GET /admin/v1/environments/env-1/campaigns/camp-1': () => CAMPAIGN,
    'GET /admin/v1/environments/env-1/campaigns/camp-9': () => CREATED,
    'PATCH /admin/v1/environments/env-1/campaigns/camp-1': (body) => ({ ...CAMPAIGN, ...(body as object) }),
    'PATCH /admin/v1/environments/env-1/campaigns/camp-1/toggle': (body) => ({
      ...CAMPAIGN,
      ...(body as object),
    }),
    'POST /admin/v1/environments/env-1/campaigns': () => CREATED,
  };
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const key = `${init?.method ?? 'GET'} ${url}`;
    made.push(key);
    const answer = answers[key];
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    if (body !== undefined) bodies.push([key, body]);
    await Promise.resolve();
    return new Response(
      JSON.stringify(answer === undefined ? { code: 'not_found', message: `No ${key} here.` } : answer(body)),
      { status: answer === undefined ? 404 : 200, headers: { 'content-type': 'application/json' } },
    );
  };
  return { made, bodies, restore: () => (window.fetch = original) };
};

const editorIn = async (app: ConsoleApp): Promise<CampaignEditor> =>
  until(
    () => {
      const editor = app.shadowRoot?.querySelector('campaign-editor');
      return editor?.shadowRoot?.querySelector('form') ? editor : null;
    },
    { what: 'the editor' },
  );

const button = (root: ParentNode, text: RegExp): HTMLButtonElement =>
  must(
    [...root.querySelectorAll('button')].find((b) => text.test(b.textContent.trim())),
    String(text),
  );

/** What the user reads in `el`: an <undo-notice> keeps its words in its shadow root. */
const textOf = (el: Element): string => (el.shadowRoot ?? el).textContent.replace(/\s+/g, ' ').trim();

/** Texts for screen readers only are clipped to nothing: they cover nothing and nothing covers them. */
const onScreen = (el: Element): boolean => !el.matches('.visually-hidden');

const visible = (el: Element): boolean => {
  const box = el.getBoundingClientRect();
  const filled = el.matches('input, select, textarea') || el.textContent.trim() !== '';
  return box.width > 0 && box.height > 0 && filled && onScreen(el);
};

const overlap = (a: DOMRect, b: DOMRect): boolean =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

const CONTROLS =
  'input, select, textarea, button, .error, .hint, [role=status], [role=alert], .saved, .notice';

/** The notices showing now, and what each overlaps among the page's inputs, buttons and messages. */
const coverings = (app: ConsoleApp, editor: CampaignEditor) => {
  const roots = [must(app.shadowRoot), must(editor.shadowRoot)];
  const notices = [
    ...[...must(app.shadowRoot).querySelectorAll('.toast')].filter((t) => t.textContent.trim() !== ''),
    ...[
      ...must(editor.shadowRoot).querySelectorAll(
        'p.saved, [data-testid=state-note], undo-notice, #missing-flags',
      ),
    ].filter((n) => onScreen(n) && textOf(n) !== ''),
  ];
  const controls = roots.flatMap((root) => [...root.querySelectorAll(CONTROLS)]).filter(visible);
  const found: string[] = [];
  for (const notice of notices)
    for (const control of controls) {
      if (notice.contains(control) || control.contains(notice)) continue;
      if (overlap(notice.getBoundingClientRect(), control.getBoundingClientRect()))
        found.push(
          `“${textOf(notice).slice(0, 40)}” covers <${control.localName}> “${(control.textContent || control.id).trim().slice(0, 40)}”`,
        );
    }
  return { notices: notices.map(textOf), found };
};

/** The editor's <undo-notice> once it says what `text` matches, rendered. */
const noticeSaying = (editor: CampaignEditor, text: RegExp) =>
  until(
    () => {
      const notice = editor.shadowRoot?.querySelector('undo-notice');
      return notice && text.test(textOf(notice)) ? notice : null;
    },
    { what: `a notice saying ${String(text)}` },
  );

describe('<campaign-editor> notices in the console', () => {
  let server: ReturnType<typeof serve> | undefined;
  let app: ConsoleApp | undefined;
  beforeEach(() => localStorage.removeItem('feature-console-choice'));
  afterEach(() => {
    server?.restore();
    app?.parentElement?.remove();
    history.replaceState(null, '', location.pathname + location.search);
  });

  const open = async (hash: string) => {
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    server = serve();
    const host = document.createElement('div');
    document.body.append(host);
    app = document.createElement('console-app');
    host.append(app);
    return editorIn(app);
  };

  it('says what a save and a state change did where nothing is covered', async () => {
    const editor = await open('#/campaigns/camp-1');
    const root = must(editor.shadowRoot);
    typeInto(must(root.querySelector<HTMLInputElement>('#f-name')), 'Buy button v2');
    const save = button(root, /^Save campaign$/);
    save.scrollIntoView({ block: 'end' });
    save.click();
    await until(() => root.querySelector('p.saved')?.textContent.includes('Live now'), {
      what: 'the saved note',
    });
    let seen = coverings(must(app), editor);
    assert.deepEqual(seen.found, []);
    assert.deepEqual(seen.notices, [
      'Saved “Buy button v2”. Live now: visitors get this at their next decision.',
    ]);

    const state = must(root.querySelector<HTMLSelectElement>('#campaign-state'));
    state.scrollIntoView({ block: 'center' });
    typeInto(state, 'paused');
    await noticeSaying(editor, /^Paused/);
    seen = coverings(must(app), editor);
    assert.include(seen.notices, 'Paused — left out of decisions until made active again. Undo');
    assert.deepEqual(seen.found, []);
  });

  it('undoes a pause from the editor through the same toggle route, and the control shows Active again', async () => {
    const editor = await open('#/campaigns/camp-1');
    const root = must(editor.shadowRoot);
    const state = must(root.querySelector<HTMLSelectElement>('#campaign-state'));
    state.scrollIntoView({ block: 'center' });
    typeInto(state, 'paused');
    const notice = await noticeSaying(editor, /^Paused — left out of decisions/);
    // In the flow under the state control, covering nothing.
    assert.strictEqual(notice.closest('.field')?.querySelector('select'), state);
    assert.deepEqual(coverings(must(app), editor).found, []);
    assert.match(
      must(root.querySelector('[data-testid=state-note]')).textContent,
      /“Buy button” is paused: .* Undo is under it for a few seconds\./,
    );
    const undo = must(notice.shadowRoot?.querySelector('button'), 'the Undo button');
    assert.strictEqual(undo.getAttribute('aria-label'), 'Undo: make Buy button active again');
    undo.click();
    await noticeSaying(editor, /^Undone\. Active/);
    const toggles = must(server).bodies.filter(([key]) => key.endsWith('/campaigns/camp-1/toggle'));
    assert.deepEqual(
      toggles.map(([, body]) => body),
      [{ state: 'paused' }, { state: 'active' }],
    );
    await editor.updateComplete;
    assert.strictEqual(state.value, 'active');
    assert.strictEqual(must(root.querySelector('#campaign-state-hint .badge')).textContent, 'Active');
    assert.strictEqual(root.activeElement, state, 'the focus on the state it restored');
    const after = must(root.querySelector('undo-notice'));
    assert.isNull(after.shadowRoot?.querySelector('button') ?? null, 'an undo is not undone in turn');
    assert.match(must(root.querySelector('[data-testid=state-note]')).textContent, /is back to active/);
    const again = coverings(must(app), editor);
    assert.deepEqual(again.found, []);
    assert.deepEqual(again.notices, ['Undone. Active — visitors get it at their next decision.']);
  });

  it('interrupts from the editor only after its confirmation, and its notice offers no Undo', async () => {
    const editor = await open('#/campaigns/camp-1');
    const root = must(editor.shadowRoot);
    const state = must(root.querySelector<HTMLSelectElement>('#campaign-state'));
    state.scrollIntoView({ block: 'center' });
    typeInto(state, 'interrupted');
    await answerConfirm('confirm');
    const notice = await noticeSaying(editor, /^Interrupted — stopped for good/);
    assert.isNull(notice.shadowRoot?.querySelector('button') ?? null, 'no Undo after interrupting');
    await editor.updateComplete;
    assert.isTrue(state.disabled, 'an interrupted campaign cannot change state');
    assert.deepEqual(
      must(server)
        .bodies.filter(([key]) => key.endsWith('/toggle'))
        .map(([, body]) => body),
      [{ state: 'interrupted' }],
    );
    const seen = coverings(must(app), editor);
    assert.deepEqual(seen.found, []);
    assert.deepEqual(seen.notices, ['Interrupted — stopped for good: it can never run again.']);
  });

  it('says what the first save did in the opened campaign, covering nothing there either', async () => {
    const editor = await open('#/campaigns/new');
    const root = must(editor.shadowRoot);
    typeInto(must(root.querySelector<HTMLInputElement>('#f-name')), 'Banner');
    button(root, /^Add flag$/).click();
    await editor.updateComplete;
    typeInto(must(root.querySelector<HTMLInputElement>('#f-variation_groups-0-flags-0-key')), 'btnText');
    typeInto(must(root.querySelector<HTMLTextAreaElement>('#flag-cell-0-0-0')), 'Buy');
    typeInto(must(root.querySelector<HTMLTextAreaElement>('#flag-cell-0-0-1')), 'Buy now');
    const save = button(root, /^Save campaign$/);
    save.scrollIntoView({ block: 'end' });
    save.click();
    const opened = await until(
      () => {
        const next = must(app).shadowRoot?.querySelector('campaign-editor');
        return next?.shadowRoot?.querySelector('[data-testid=created-note]') ? next : null;
      },
      { what: 'the created campaign opened with its note' },
    );
    const seen = coverings(must(app), opened);
    assert.deepEqual(seen.found, []);
    assert.deepEqual(seen.notices, ['Saved “Banner”. Live now: visitors get this at their next decision.']);
    assert.include(must(server).made, 'POST /admin/v1/environments/env-1/campaigns');
  });
});
