import { randomBytes, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { encode } from 'next-auth/jwt';
import { APP_URL, SANDBOX_URL } from '../playwright.config';
import { MANAGER, signInOverHttp } from './support/accounts';
import {
  actionCatalog,
  type CatalogAction,
  catalogEntry,
  unitAndKeyActionCatalog,
} from './support/action-catalog';
import {
  type ActionAnswer,
  type ActionForm,
  actionFormsOf,
  actionResultOf,
  type Fields,
  type FieldValue,
  fetchActionBody,
  fileValue,
  formWhere,
  noJsBody,
  postAction,
  type Via,
} from './support/forms';
import { signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';
import {
  cookieHeader,
  deploymentSecrets,
  extraPort,
  startApp,
  startOwnSandbox,
} from './support/stack';

/**
 * Issue #9: every server action (and the bulk route) refuses callers without a live session,
 * with another manager's ids bound in, or from another site, before any write reaches the
 * service; and a generated battery of malformed input gets field errors, never a 500 or a write.
 * Plain HTTP throughout, as an attacker (or a browser without JavaScript) would send it.
 */

test.describe.configure({ mode: 'serial' });

// ---- the service's write counter -------------------------------------------------------------

/** Service calls that change something; token and consent traffic is not a thermostat write. */
async function serviceWrites(): Promise<Record<string, number>> {
  const { calls } = (await (await fetch(`${SANDBOX_URL}/_sandbox/calls`)).json()) as {
    calls: Record<string, number>;
  };
  return Object.fromEntries(
    Object.entries(calls).filter(
      ([key]) => !key.startsWith('GET ') && !/ \/(token|authorize)$/.test(key),
    ),
  );
}

// ---- the manager, the attacker's ids, the pages ---------------------------------------------

let cookie = '';
let thermostatId = '';
let otherThermostatId = '';
let buildingId = '';
let secondBuildingId = '';
let otherBuildingId = '';
/** The unit `thermostatId` is in (every thermostat comes in a unit of its own). */
let unitId = '';

type Answer = ActionAnswer;

async function pageForms(path: string, as = cookie): Promise<ActionForm[]> {
  const response = await fetch(`${APP_URL}${path}`, { headers: { cookie: as } });
  expect(response.status, `GET ${path}`).toBe(200);
  return actionFormsOf(await response.text());
}

/** Posts one action call the way `via` does, with `bound` in place of the rendered bound args. */
const callAction = (
  path: string,
  form: ActionForm,
  fields: Fields,
  options: { via?: Via; bound?: unknown[]; cookie?: string; origin?: string } = {},
): Promise<Answer> =>
  postAction(`${APP_URL}${path}`, form, fields, {
    ...options,
    cookie: options.cookie ?? cookie,
    origin: options.origin ?? APP_URL,
  });

const VIAS = ['fetch', 'nojs'] as const;
const FETCH_ONLY = ['fetch'] as const;
const ERROR_BOUNDARY = /Something went wrong on this page|This section could not be shown/;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInWithDemoPortfolio(page);
  cookie = await cookieHeader(page);
  await page.close();
  const demo = (await sandboxControl('GET', '/portfolio?user=demo')) as {
    buildings: { buildingId: string }[];
    thermostats: { thermostatId: string; buildingId: string }[];
  };
  const other = (await sandboxControl('GET', '/portfolio?user=other')) as typeof demo;
  // A connected thermostat that has comfort settings, in a building with a sibling building.
  for (const candidate of demo.thermostats) {
    const record = await sandboxControl('GET', `/thermostats/${candidate.thermostatId}`);
    if (record.connected !== false) {
      thermostatId = candidate.thermostatId;
      buildingId = candidate.buildingId;
      break;
    }
  }
  secondBuildingId =
    demo.buildings.find((building) => building.buildingId !== buildingId)?.buildingId ?? '';
  otherThermostatId = other.thermostats[0]?.thermostatId ?? '';
  otherBuildingId = other.buildings[0]?.buildingId ?? '';
  const thermostatPage = await fetch(`${APP_URL}/thermostats/${thermostatId}`, {
    headers: { cookie },
  });
  unitId = (await thermostatPage.text()).match(/\/units\/([0-9a-f-]{36})/)?.[1] ?? '';
  expect([
    thermostatId,
    secondBuildingId,
    otherThermostatId,
    otherBuildingId,
    unitId,
  ]).not.toContain('');
});

// ---- the actions under test ----------------------------------------------------------------

/** A catalog action, with what an attacker swaps in for its bound id (first bound argument). */
type ActionUnderTest = CatalogAction & { forgedIds?: () => unknown[] };

const NOT_A_STRING_IDS = [491109100550, null, { thermostatId: 'x' }, ['x'], true];
const thermostatIds = () => [
  otherThermostatId,
  '000000000000',
  'abc',
  `../${thermostatId}`,
  ` ${thermostatId}`,
  'x'.repeat(100_000),
  ...NOT_A_STRING_IDS,
];
const buildingIds = () => [
  otherBuildingId,
  'a'.repeat(24),
  `${buildingId}0`,
  'x'.repeat(100_000),
  ...NOT_A_STRING_IDS,
];

const onThermostat = (tab = '') => `/thermostats/${thermostatId}${tab}`;

const unitIds = () => [
  randomUUID(),
  '00000000-0000-0000-0000-000000000000',
  `${unitId.slice(0, -1)}x`,
  `../${unitId}`,
  'x'.repeat(100_000),
  ...NOT_A_STRING_IDS,
];

const FORGED_IDS = { thermostat: thermostatIds, building: buildingIds, unit: unitIds };

const ACTIONS: ActionUnderTest[] = [
  ...actionCatalog(() => ({ thermostatId, buildingId, secondBuildingId, otherThermostatId })),
  ...unitAndKeyActionCatalog(() => ({ unitId, buildingId })),
].map((action) => ({
  ...action,
  forgedIds: action.boundId ? FORGED_IDS[action.boundId] : undefined,
}));

const actionNamed = (name: string) => catalogEntry(ACTIONS, name);

async function formOf(action: ActionUnderTest) {
  const forms = await pageForms(action.path());
  try {
    return formWhere(forms, action.pick);
  } catch (error) {
    throw new Error(`${action.name} on ${action.path()}: ${String(error)}`);
  }
}

/** A refused call: no 5xx, not accepted, no error page (writes are counted per action). */
function expectRefused(answer: Answer, what: string) {
  expect(answer.status, `${what}: status`).toBeLessThan(500);
  expect(answer.result?.status, `${what}: result`).not.toBe('success');
  expect(answer.body, `${what}: error page`).not.toMatch(ERROR_BOUNDARY);
}

/**
 * Runs one action's cases a few at a time and checks that, all together, they wrote nothing at
 * the service (its call counts before and after are the same).
 */
async function withoutWrites<T>(what: string, cases: T[], run: (item: T) => Promise<void>) {
  const before = await serviceWrites();
  const queue = [...cases];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  expect(await serviceWrites(), `${what}: service writes`).toEqual(before);
}

// ---- 1. sessions, other managers' ids, other sites -----------------------------------------

test('no session, a forged or a revoked session cookie: every action is refused before any write', async () => {
  test.setTimeout(90_000);
  const secret = process.env.E2E_AUTH_SECRET ?? '';
  const live = cookie.match(/next-auth\.session-token=([^;]+)/)?.[1] ?? '';
  const revoked = await signedOutCopyOfASession();
  const sessions: [string, string][] = [
    ['no cookie', ''],
    ['a garbage session cookie', 'next-auth.session-token=forged'],
    ['a tampered session cookie', `next-auth.session-token=${live.slice(0, -6)}AAAAAA`],
    [
      'a cookie sealed with another secret',
      `next-auth.session-token=${await encode({
        token: { sub: 'x', sid: 'y' },
        secret: randomBytes(32).toString('base64url'),
      })}`,
    ],
    [
      'a cookie sealed with the real secret for a session that does not exist',
      `next-auth.session-token=${await encode({ token: { sub: 'x', sid: 'made-up' }, secret })}`,
    ],
    ['a copy of a signed-out session', revoked],
  ];
  for (const action of ACTIONS) {
    const form = await formOf(action);
    // Without JavaScript too, for the kinds the proxy and the action each stop first.
    const cases = sessions.flatMap(([label, jar]) =>
      (label === 'no cookie' || label.startsWith('a garbage') ? VIAS : FETCH_ONLY).map((via) => ({
        label,
        jar,
        via,
      })),
    );
    await withoutWrites(action.name, cases, async ({ label, jar, via }) => {
      const answer = await callAction(action.path(), form, action.valid(), { via, cookie: jar });
      const what = `${action.name}, ${label}, ${via}`;
      expectRefused(answer, what);
      if (via === 'nojs') {
        // Sent back to sign in: by the proxy (no cookie) or by the action's own check.
        expect(answer.status, what).toBeGreaterThanOrEqual(300);
        expect(answer.location ?? '', what).toContain('/sign-in');
      }
    });
  }
  // The bulk route answers a missing or dead session with a 401/redirect, never a write.
  for (const [label, jar] of sessions) {
    const before = await serviceWrites();
    const response = await postBulk(
      { thermostatIds: [thermostatId], values: { fanMinimumOnTime: '12' } },
      { cookie: jar },
    );
    expect(response.status, `bulk, ${label}`).toBeGreaterThanOrEqual(300);
    expect(response.status, `bulk, ${label}`).toBeLessThan(500);
    expect(await serviceWrites(), `bulk, ${label}`).toEqual(before);
  }
});

/** Signs in over HTTP as the manager, keeps the cookie, signs out: the copy it returns. */
async function signedOutCopyOfASession(): Promise<string> {
  const csrf = await fetch(`${APP_URL}/api/auth/csrf`);
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${APP_URL}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrfToken,
      email: MANAGER.email,
      password: MANAGER.password,
      json: 'true',
    }),
    redirect: 'manual',
  });
  const session = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('next-auth.session-token='));
  if (!session) throw new Error('no session cookie from an HTTP sign-in');
  // It works while the session is live...
  const live = await fetch(`${APP_URL}/`, { headers: { cookie: session }, redirect: 'manual' });
  expect(live.status).toBe(200);
  await fetch(`${APP_URL}/api/auth/signout`, {
    method: 'POST',
    headers: {
      cookie: `${csrfCookie}; ${session}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrfToken, json: 'true' }),
    redirect: 'manual',
  });
  // ...and not after signing out, though the browser could have kept a copy.
  const after = await fetch(`${APP_URL}/`, { headers: { cookie: session }, redirect: 'manual' });
  expect(after.status).toBe(307);
  return session;
}

test('another manager’s (or no one’s) ids bound into an action are refused before any write', async () => {
  test.setTimeout(90_000);
  let cases = 0;
  for (const action of ACTIONS) {
    if (!action.forgedIds) continue;
    const form = await formOf(action);
    // The first two (another manager's id, no one's) without JavaScript too.
    const forgeries = action
      .forgedIds()
      .flatMap((forged, index) => (index < 2 ? VIAS : FETCH_ONLY).map((via) => ({ forged, via })));
    await withoutWrites(action.name, forgeries, async ({ forged, via }) => {
      const bound = [forged, ...form.bound.slice(1)];
      const answer = await callAction(action.path(), form, action.valid(), { via, bound });
      const what = `${action.name}, bound ${JSON.stringify(forged).slice(0, 40)}, ${via}`;
      expectRefused(answer, what);
      if (via === 'fetch' && form.bound.length > 1) {
        // A form action answers with its state: an error that says why.
        expect(answer.result?.status, what).toBe('error');
        expect(String(answer.result?.message ?? ''), what).not.toBe('');
      }
      cases += 1;
    });
  }
  // Comfort settings are addressed by a second bound argument, the setting's ref.
  for (const name of ['comfort setting update', 'comfort setting delete']) {
    const action = actionNamed(name);
    const form = await formOf(action);
    const refs = ['no-such-setting', '../home', 'x'.repeat(100_000), 42, null, { a: 1 }];
    await withoutWrites(`${name} (ref)`, refs, async (ref) => {
      const bound = [form.bound[0], ref, ...form.bound.slice(2)];
      const answer = await callAction(action.path(), form, action.valid(), { bound });
      expectRefused(answer, `${name}, ref ${JSON.stringify(ref).slice(0, 40)}`);
      expect(answer.result?.status, `${name}, ref ${String(ref).slice(0, 40)}`).toBe('error');
      cases += 1;
    });
  }
  expect(cases).toBeGreaterThan(100);
});

test('a request from another site is a clean 403 for every action and the bulk route', async () => {
  // '' sends no Origin at all: with the session cookie, not Setpoint's own page (nor a browser's).
  for (const origin of ['https://evil.example', 'null', `${APP_URL}.evil.example`, '']) {
    for (const action of ACTIONS) {
      const form = await formOf(action);
      for (const via of ['fetch', 'nojs'] as const) {
        const before = await serviceWrites();
        const answer = await callAction(action.path(), form, action.valid(), { via, origin });
        expect(answer.status, `${action.name}, ${origin}, ${via}`).toBe(403);
        expect(await serviceWrites()).toEqual(before);
      }
    }
    const before = await serviceWrites();
    const response = await postBulk(
      { thermostatIds: [thermostatId], values: { fanMinimumOnTime: '12' } },
      { origin },
    );
    expect(response.status, `bulk, ${origin}`).toBe(403);
    expect(await serviceWrites()).toEqual(before);
  }
  // The app's own origin still works: a harmless action succeeds from it.
  const rename = await formOf(actionNamed('rename thermostat'));
  const label = rename.values.unitLabel ?? '';
  const ok = await callAction(onThermostat(), rename, [['unitLabel', label]]);
  expect(ok.result?.status).toBe('success');
  // As does a browser that sends no Origin but says the request is its own site's.
  const sameSite = await fetch(`${APP_URL}${onThermostat()}`, {
    method: 'POST',
    headers: {
      cookie,
      'sec-fetch-site': 'same-origin',
      'next-action': rename.actionId,
      accept: 'text/x-component',
    },
    body: fetchActionBody(rename.bound, [['unitLabel', label]]),
  });
  expect(sameSite.status).toBe(200);
});

// ---- 2. the generated battery of malformed input ---------------------------------------------

const MISSING = Symbol('missing');
type Bad = { label: string; value: FieldValue | FieldValue[] | typeof MISSING };
const bad = (label: string, value: Bad['value']): Bad => ({ label, value });

const HUGE = 'x'.repeat(100 * 1024);
const common = {
  empty: bad('empty', ''),
  blank: bad('whitespace', ' \t  '),
  huge: bad('100 KB', HUGE),
  // Copied for every request that sends it (see `casesOf`).
  file: bad('a file', fileValue()),
  missing: bad('missing', MISSING),
};

const numberish = [
  bad('NaN', 'NaN'),
  bad('Infinity', 'Infinity'),
  bad('-Infinity', '-Infinity'),
  bad('1e309', '1e309'),
  bad('a word', 'warm'),
  bad('hex', '0x20'),
  bad('Arabic-Indic digits', '٧٢'),
  bad('full-width digits', '７２'),
];
/** What each kind of field must refuse. */
const KIND = {
  requiredText: [common.empty, common.blank, common.huge, common.file, common.missing],
  optionalText: [common.huge, common.file],
  temperature: [
    common.empty,
    common.blank,
    common.huge,
    common.file,
    common.missing,
    ...numberish,
    bad('far below', '-400'),
    bad('far above', '1000'),
    bad('three decimals', '70.123'),
  ],
  wholeNumber: [
    common.empty,
    common.blank,
    common.huge,
    common.file,
    common.missing,
    ...numberish,
    bad('negative', '-1'),
    bad('a fraction', '1.5'),
    bad('far above', '100000'),
  ],
  choice: [common.empty, common.huge, common.file, common.missing, bad('unknown', 'bogus')],
} satisfies Record<string, Bad[]>;

type BatteryForm = {
  action: string;
  fields: Record<string, Bad[]>;
  /** A few cases breaking several fields at once (extra unknown fields ride along). */
  combined: Record<string, Bad['value']>[];
  /** Where the refusal shows: under the broken field (default) or as the form's message. */
  expect?: 'field' | 'message';
};

const EXTRA: Fields = [
  ['isAdmin', 'true'],
  ['userId', 'someone-else'],
  ['__proto__', '{"polluted":true}'],
  ['constructor', 'x'],
];

const BATTERY: BatteryForm[] = [
  {
    action: 'record occupancy',
    fields: {
      event: [...KIND.choice, bad('upper case', 'MOVE_OUT')],
      moveOutOn: [
        ...KIND.requiredText,
        bad('not a day', '2027-02-30'),
        bad('a time', '15:00'),
        bad('day first', '31/01/2027'),
      ],
    },
    combined: [{ event: 'bogus', moveOutOn: HUGE }],
  },
  {
    action: 'edit unit',
    fields: {
      label: [...KIND.requiredText, bad('65 characters', 'n'.repeat(65))],
      externalId: [...KIND.optionalText, bad('65 characters', 'e'.repeat(65))],
    },
    combined: [{ label: '', externalId: HUGE }],
  },
  {
    action: 'make api key',
    fields: {
      name: [...KIND.requiredText, bad('65 characters', 'n'.repeat(65))],
      scopes: [...KIND.choice, bad('upper case', 'READ')],
    },
    combined: [{ name: '', scopes: 'admin' }],
  },
  {
    action: 'move-in lead',
    fields: {
      hours: [
        ...KIND.requiredText,
        ...numberish,
        bad('negative', '-1'),
        bad('far above', '100'),
        bad('three decimals', '2.125'),
        bad('a third of an hour', '0.33'),
      ],
    },
    combined: [{ hours: HUGE }],
  },
  {
    action: 'building details',
    fields: {
      name: [
        ...KIND.requiredText,
        bad('33 characters', 'n'.repeat(33)),
        bad('a control character', 'North\u0000Tower'),
      ],
      address: [...KIND.optionalText, bad('201 characters', 'a'.repeat(201))],
    },
    combined: [{ name: '', address: HUGE }],
  },
  {
    action: 'new thermostat',
    fields: {
      name: [...KIND.optionalText, bad('65 characters', 'n'.repeat(65))],
      thermostatId: [
        common.blank,
        common.huge,
        common.file,
        bad('11 digits', '12345678901'),
        bad('letters', 'abcdefghijkl'),
        bad('Arabic-Indic digits', '٤٩١١٠٩١٠٠٥٥٠'),
        bad('full-width digits', '４９１１０９１００５５０'),
        bad('1e309', '1e309'),
      ],
      hvacMode: [...KIND.choice, bad('upper case', 'HEAT')],
      isResidentMode: [...KIND.choice, bad('true', 'true')],
    },
    combined: [{ hvacMode: 'bogus', isResidentMode: 'maybe', thermostatId: 'x' }],
  },
  {
    action: 'resident mode',
    fields: {
      isResidentMode: [...KIND.choice, bad('true', 'true')],
      confirmReset: [common.empty, common.huge, common.file, bad('no', 'no')],
    },
    combined: [{ isResidentMode: 'off', confirmReset: MISSING }],
  },
  {
    action: 'move',
    fields: {
      buildingId: [
        ...KIND.choice,
        bad('another manager’s building', 'OTHER_BUILDING'),
        bad('no one’s building', 'b'.repeat(24)),
        bad('the building it is in', 'OWN_BUILDING'),
      ],
    },
    combined: [{ buildingId: ['OTHER_BUILDING', 'OTHER_BUILDING'] }],
  },
  {
    action: 'rename thermostat',
    fields: { unitLabel: [...KIND.optionalText, bad('65 characters', 'n'.repeat(65))] },
    combined: [],
  },
  {
    action: 'temperature unit',
    expect: 'message',
    fields: { unit: [...KIND.choice, bad('Kelvin', 'K')] },
    combined: [],
  },
  {
    action: 'schedule range',
    fields: {
      days: [
        common.huge,
        common.file,
        common.missing,
        bad('an unknown day', 'funday'),
        bad('capitalised', 'Monday'),
        bad('the same day twice', ['monday', 'monday']),
      ],
      from: [...KIND.wholeNumber, bad('block 48', '48')],
      to: [...KIND.wholeNumber, bad('block 48', '48'), bad('before the start', '3')],
      comfortSettingRef: [
        ...KIND.requiredText,
        bad('an unknown setting', 'no-such-setting'),
        bad('65 characters', 'r'.repeat(65)),
      ],
    },
    combined: [{ days: ['monday', 'funday'], from: '47', to: '0', comfortSettingRef: '' }],
  },
  ...(['comfort setting create', 'comfort setting update'] as const).map(
    (action): BatteryForm => ({
      action,
      fields: {
        name: [...KIND.requiredText, bad('33 characters', 'n'.repeat(33))],
        // Setpoints are rounded to the service's two decimals (by design), so 70.123 is fine.
        desiredHeat: KIND.temperature.filter((value) => value.label !== 'three decimals'),
        desiredCool: KIND.temperature.filter((value) => value.label !== 'three decimals'),
        fanHeat: KIND.choice,
        fanCool: KIND.choice,
      },
      combined: [
        { desiredHeat: '75', desiredCool: '74' },
        { name: '', desiredHeat: 'NaN', desiredCool: 'Infinity', fanHeat: 'x', fanCool: 'y' },
      ],
    }),
  ),
  {
    action: 'configuration',
    fields: {
      heatMin: KIND.temperature,
      heatMax: KIND.temperature,
      coolMin: KIND.temperature,
      coolMax: KIND.temperature,
      holdAction: KIND.choice,
      fanMinimumOnTime: [...KIND.wholeNumber, bad('56 minutes', '56')],
    },
    combined: [
      { heatMin: '76', heatMax: '50' },
      { heatMin: '1e309', coolMax: '١٢', holdAction: 'never', fanMinimumOnTime: 'Infinity' },
    ],
  },
  {
    action: 'access control',
    fields: {
      passcode: [
        common.huge,
        common.file,
        bad('Arabic-Indic digits', '١٢٣٤'),
        bad('full-width digits', '１２３４'),
        bad('three digits', '123'),
        bad('five digits', '12345'),
        bad('letters', 'abcd'),
        bad('a space inside', '12 4'),
        bad('1e3', '1e3'),
        bad('negative', '-123'),
        bad('whitespace around', ' 1234 '),
      ],
    },
    combined: [
      { enabled: MISSING, passcode: '1234' },
      { passcode: '5678', clearPasscode: 'on' },
    ],
  },
  {
    action: 'alerts',
    fields: {
      lastMaintenanceDate: [
        ...KIND.requiredText,
        bad('not a date', 'soon'),
        bad('30 February', '2024-02-30'),
        bad('full-width digits', '２０２４-０１-１５'),
        bad('no zero padding', '2024-1-5'),
      ],
      maintenanceInterval: [...KIND.wholeNumber, bad('61 months', '61')],
      // Blank keeps the current units (the select always sends one), so only junk is refused.
      maintenanceIntervalUnits: [
        common.huge,
        bad('unknown', 'fortnight'),
        bad('upper case', 'MONTH'),
      ],
      lowTemperatureValue: [...KIND.temperature, bad('-11', '-11')],
      highTemperatureValue: [...KIND.temperature, bad('121', '121')],
      lowHumidityValue: [...KIND.wholeNumber, bad('0 %', '0')],
      highHumidityValue: [...KIND.wholeNumber, bad('101 %', '101')],
    },
    combined: [
      { lowTemperatureValue: '80', highTemperatureValue: '81' },
      { lowHumidityValue: '50', highHumidityValue: '52', maintenanceInterval: '1e309' },
    ],
  },
  {
    action: 'add by list',
    expect: 'message',
    fields: {
      list: [
        ...KIND.requiredText,
        bad('Arabic-Indic digits', '٤٩١١٠٩١٠٠٥٥٠'),
        bad('full-width digits', '４９１１０９１٠٠５５０'),
        bad('1e309', '1e309'),
        bad('a label of 65 characters', `123456789012, ${'l'.repeat(65)}`),
        bad('26 unknown ids', Array.from({ length: 26 }, () => 'nope').join('\n')),
      ],
    },
    combined: [],
  },
  {
    action: 'bulk review',
    expect: 'message',
    fields: {
      thermostatIds: [
        common.missing,
        common.huge,
        common.file,
        bad('another manager’s', 'OTHER_THERMOSTAT'),
        bad('11 digits', '12345678901'),
        bad('full-width digits', '４９１１０９１００５５０'),
        bad(
          '2001 ids',
          Array.from({ length: 2001 }, (_, i) => String(100000000000 + i)),
        ),
      ],
      allIn: [
        bad('another organisation’s building', 'OTHER_BUILDING'),
        bad('a made-up building', 'a'.repeat(24)),
        common.huge,
        common.file,
      ],
      fanMinimumOnTime: [
        common.huge,
        common.file,
        ...numberish,
        bad('56', '56'),
        bad('a fraction', '1.5'),
      ],
    },
    combined: [{ thermostatIds: MISSING, fanMinimumOnTime: '' }],
  },
  {
    action: 'add by CSV',
    expect: 'message',
    fields: {
      csv: [
        common.missing,
        bad('text instead of a file', 'thermostatId\n123456789012'),
        bad('an empty file', new File([], 'empty.csv')),
        bad('no header', new File(['123456789012\n'], 'ids.csv')),
        bad('over 512 KB', new File([`thermostatId\n${'1'.repeat(600 * 1024)}`], 'big.csv')),
        bad('broken quoting', new File(['thermostatId\n"12345'], 'ids.csv')),
        bad('binary', new File([new Uint8Array([0, 255, 1, 254, 10, 13])], 'ids.csv')),
        bad('full-width ids', new File(['thermostatId\n４９１１０９１００５５０\n'], 'ids.csv')),
      ],
    },
    combined: [],
  },
];

/** The battery's cases: each field broken alone (the rest valid), then the combined ones. */
function casesOf(entry: BatteryForm, valid: Fields) {
  const substitute = (value: FieldValue | FieldValue[]) => {
    const swap = (v: FieldValue) =>
      v === 'OTHER_BUILDING'
        ? otherBuildingId
        : v === 'OWN_BUILDING'
          ? buildingId
          : v === 'OTHER_THERMOSTAT'
            ? otherThermostatId
            : v;
    return Array.isArray(value) ? value.map(swap) : swap(value);
  };
  const build = (broken: Record<string, Bad['value']>, extra: Fields = []): Fields => {
    const names = new Set([...valid.map(([name]) => name), ...Object.keys(broken)]);
    const fields: Fields = [];
    for (const name of names) {
      if (name in broken) {
        const value = broken[name];
        if (value === MISSING || value === undefined) continue;
        // A File is single-use: a fresh one for every request.
        const fresh = (v: FieldValue) => (v instanceof File ? new File([v], v.name) : v);
        for (const v of [substitute(value)].flat()) fields.push([name, fresh(v)]);
      } else {
        for (const [n, v] of valid) if (n === name) fields.push([n, v]);
      }
    }
    return [...fields, ...extra];
  };
  const cases: { label: string; field?: string; fields: () => Fields }[] = [];
  for (const [field, values] of Object.entries(entry.fields)) {
    for (const value of values) {
      cases.push({
        label: `${field}: ${value.label}`,
        field,
        fields: () => build({ [field]: value.value }),
      });
    }
  }
  entry.combined.forEach((broken, index) => {
    cases.push({ label: `combined #${index + 1}`, fields: () => build(broken, EXTRA) });
  });
  return cases;
}

test('a generated battery of malformed input: field errors, no 500, no service write', async () => {
  test.setTimeout(180_000);
  const counts: Record<string, number> = {};
  for (const entry of BATTERY) {
    const action = actionNamed(entry.action);
    const form = await formOf(action);
    const cases = casesOf(entry, action.valid());
    counts[entry.action] = cases.length;
    // Without JavaScript too, once per field: the page again, with the error shown.
    const seen = new Set<string>();
    const jobs = cases.map((testCase) => {
      const key = testCase.field ?? testCase.label;
      const noJs = !seen.has(key);
      seen.add(key);
      return { testCase, noJs };
    });
    await withoutWrites(entry.action, jobs, async ({ testCase, noJs }) => {
      const what = `${entry.action}, ${testCase.label}`;
      const answer = await callAction(action.path(), form, testCase.fields());
      expect(answer.status, `${what}: status`).toBe(200);
      const result = answer.result ?? {};
      expect(result.status, `${what}: ${answer.body.slice(0, 300)}`).toBe('error');
      const fieldErrors = (result.fieldErrors ?? {}) as Record<string, string[]>;
      const said = [String(result.message ?? ''), ...Object.values(fieldErrors).flat()];
      if (testCase.field && entry.expect !== 'message') {
        expect(
          fieldErrors[testCase.field]?.length ?? 0,
          `${what}: field error (said ${JSON.stringify(said)})`,
        ).toBeGreaterThan(0);
      } else {
        expect(said.join('').length, `${what}: a message`).toBeGreaterThan(0);
      }
      // Nothing secret comes back: whatever this case sent as a passcode (of three characters or
      // more, so that it cannot be a stray part of the page) is never echoed, as a refilled value
      // in the answer's state or in the page without JavaScript.
      const passcodes = testCase
        .fields()
        .flatMap(([name, value]) =>
          name === 'passcode' && typeof value === 'string' && value.trim().length >= 3
            ? [value]
            : [],
        );
      for (const passcode of passcodes) {
        expect(answer.body, `${what}: passcode echoed`).not.toContain(JSON.stringify(passcode));
      }
      if (!noJs) return;
      const page = await callAction(action.path(), form, testCase.fields(), { via: 'nojs' });
      expect(page.status, `${what} (no JS): status`).toBe(200);
      for (const passcode of passcodes) {
        expect(page.body, `${what} (no JS): passcode echoed`).not.toContain(
          `value="${escapeHtml(passcode)}"`,
        );
      }
      expect(page.body, `${what} (no JS)`).not.toMatch(ERROR_BOUNDARY);
      const shown = said.filter((text) => text !== '' && page.body.includes(escapeHtml(text)));
      expect(shown.length, `${what} (no JS): one of ${JSON.stringify(said)} shown`).toBeGreaterThan(
        0,
      );
    });
  }
  console.log(`battery cases per form: ${JSON.stringify(counts)}`);
  expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(300);
});

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

// ---- the bulk route: NDJSON, JSON in -----------------------------------------------------------

async function postBulk(
  body: unknown,
  options: { cookie?: string; origin?: string; raw?: string } = {},
): Promise<Response> {
  const origin = options.origin ?? APP_URL;
  return fetch(`${APP_URL}/bulk/apply`, {
    method: 'POST',
    headers: {
      ...(origin ? { origin } : {}),
      cookie: options.cookie ?? cookie,
      'content-type': 'application/json',
    },
    body: options.raw ?? JSON.stringify(body),
    redirect: 'manual',
  });
}

test('bulk apply: a generated battery of malformed bodies is refused with a message, never sent', async () => {
  const valid = { thermostatIds: [thermostatId], values: { fanMinimumOnTime: '12' } };
  const ids = (n: number, make: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => make(i));
  const badIds: [string, unknown][] = [
    ['missing', undefined],
    ['empty', []],
    ['a string', thermostatId],
    ['numbers', [Number(thermostatId)]],
    ['null inside', [null]],
    ['malformed', ['abc']],
    ['Arabic-Indic digits', ['٤٩١١٠٩١٠٠٥٥٠']],
    ['full-width digits', ['４９１１０９１００５５０']],
    ['duplicates', [thermostatId, thermostatId]],
    ['26 duplicates', ids(26, () => thermostatId)],
    ['26 not in the portfolio', ids(26, (i) => String(100000000000 + i))],
    ['another manager’s', [otherThermostatId]],
    ['2001 ids', ids(2001, (i) => String(100000000000 + i))],
    ['a 100 KB id', [HUGE]],
  ];
  const badValues: [string, unknown][] = [
    ['missing', undefined],
    ['not an object', 'fan'],
    ['nothing to change', {}],
    ['only unknown fields', { isAdmin: 'true', __proto__: { polluted: true } }],
    ['a number, not text', { fanMinimumOnTime: 12 }],
    ...['NaN', 'Infinity', '1e309', '٥', '５', '56', '-1', '1.5', ' '].map(
      (v): [string, unknown] => [`fan ${JSON.stringify(v)}`, { fanMinimumOnTime: v }],
    ),
    ...['NaN', '-Infinity', '1e309', '١٢', '１２', '44', '999'].map((v): [string, unknown] => [
      `heat minimum ${JSON.stringify(v)}`,
      { heatMin: v, heatMax: '70' },
    ]),
    ['only one end of a range', { heatMin: '60' }],
    ['min above max', { heatMin: '70', heatMax: '60' }],
    ['a 100 KB value', { holdAction: HUGE }],
    ['an unknown hold action', { holdAction: 'forever' }],
  ];
  const cases: [string, { body?: unknown; raw?: string }][] = [
    ...badIds.map(([label, value]): [string, { body: unknown }] => [
      `thermostatIds: ${label}`,
      { body: { ...valid, thermostatIds: value } },
    ]),
    ...badValues.map(([label, value]): [string, { body: unknown }] => [
      `values: ${label}`,
      { body: { ...valid, values: value } },
    ]),
    ['not JSON', { raw: '{"thermostatIds": [' }],
    ['a JSON array', { raw: '[]' }],
    ['100 KB of junk', { raw: HUGE }],
    ['JSON null', { raw: 'null' }],
  ];
  for (const [label, { body, raw }] of cases) {
    const before = await serviceWrites();
    const response = await postBulk(body, { raw });
    const text = await response.text();
    expect(response.status, `bulk, ${label}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `bulk, ${label}`).toBeLessThan(500);
    const answer = JSON.parse(text) as { message?: string };
    expect(answer.message ?? '', `bulk, ${label}`).not.toBe('');
    expect(await serviceWrites(), `bulk, ${label}: service writes`).toEqual(before);
  }
  console.log(`bulk battery cases: ${cases.length}`);
});

test('disconnect with extra fields and arguments: no 500, no service call, only the tokens go', async ({
  page,
}) => {
  const action = actionNamed('disconnect');
  const form = await formOf(action);
  const before = await serviceWrites();
  const answer = await callAction(action.path(), form, [...EXTRA, ['list', HUGE]], {
    bound: ['unexpected', { status: 'idle' }],
  });
  expect(answer.status).toBeLessThan(500);
  expect(answer.body).not.toMatch(ERROR_BOUNDARY);
  expect(await serviceWrites()).toEqual(before);
  const after = await (await fetch(`${APP_URL}/connection`, { headers: { cookie } })).text();
  expect(after).toContain('Connect service account');
  // Connected again, for the specs after this one.
  await signInWithDemoPortfolio(page);
});

test('a body over the 1 MB limit is a 413 and one of unsaid length a 411, before the action runs', async () => {
  const action = actionNamed('add by CSV');
  const form = await formOf(action);
  const rows = `thermostatId\n${'1'.repeat(12)}\n`.repeat(90_000);
  const oversized: Fields = [['csv', new File([rows], 'ids.csv')]];
  const before = await serviceWrites();
  for (const via of VIAS) {
    const answer = await callAction(action.path(), form, oversized, { via });
    expect(answer.status, `oversized, ${via}`).toBe(413);
    expect(answer.body).toContain('too large');
  }
  // A body streamed without a length (chunked) cannot be measured before it is read.
  const encoded = new Response(fetchActionBody(form.bound, action.valid()));
  const streamed = await fetch(`${APP_URL}${action.path()}`, {
    method: 'POST',
    headers: {
      origin: APP_URL,
      cookie,
      'next-action': form.actionId,
      'content-type': encoded.headers.get('content-type') ?? '',
    },
    body: encoded.body,
    duplex: 'half',
  } as RequestInit);
  expect(streamed.status).toBe(411);
  // Just under the limit, the action runs as usual and refuses the CSV with a message.
  const fits = await callAction(action.path(), form, [
    ['csv', new File(['x'.repeat(1000 * 1000)], 'ids.csv')],
  ]);
  expect(fits.status).toBe(200);
  expect(fits.result?.status).toBe('error');
  expect(await serviceWrites()).toEqual(before);
});

// ---- 3. cookie flags ----------------------------------------------------------------------

/** The attributes of one Set-Cookie line, lower-cased, by name. */
function cookieAttributes(line: string) {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  const name = pair.split('=')[0] ?? '';
  return {
    name,
    pair,
    flags: new Set(attributes.map((attribute) => attribute.toLowerCase())),
  };
}

test('over http: the session and OAuth flow cookies are HttpOnly and SameSite=Lax', async () => {
  const { sessionLines } = await signInOverHttp(APP_URL);
  const session = sessionLines
    .map(cookieAttributes)
    .find((c) => c.name === 'next-auth.session-token');
  expect(session?.flags.has('httponly')).toBe(true);
  expect(session?.flags.has('samesite=lax')).toBe(true);
  expect(session?.flags.has('secure')).toBe(false);

  const connect = await fetch(`${APP_URL}/api/connect`, {
    method: 'POST',
    headers: { cookie: session?.pair ?? '', origin: APP_URL },
    body: new URLSearchParams({ returnTo: '/connection' }),
    redirect: 'manual',
  });
  expect(connect.status).toBe(303);
  const flow = connect.headers
    .getSetCookie()
    .map(cookieAttributes)
    .find((c) => c.name === 'setpoint_oauth');
  expect(flow?.flags.has('httponly')).toBe(true);
  expect(flow?.flags.has('samesite=lax')).toBe(true);
  expect(flow?.flags.has('path=/api/connect')).toBe(true);
});

test('in production behind https: setup validates, and every cookie is Secure, HttpOnly and Lax', async () => {
  test.setTimeout(120_000);
  const publicUrl = 'https://setpoint.example';
  // What the TLS-terminating proxy in front of the app adds, and the browser's Origin.
  const BEHIND_HTTPS = {
    origin: publicUrl,
    'x-forwarded-host': 'setpoint.example',
    'x-forwarded-proto': 'https',
  };
  const sandbox = await startOwnSandbox(publicUrl);
  const app = await startApp({
    port: extraPort(7),
    publicUrl,
    serviceUrl: sandbox.url,
    env: deploymentSecrets(),
  });
  try {
    // Served over https, every page tells browsers to stay on https.
    const setupPage = await fetch(`${app.url}/setup`, { headers: BEHIND_HTTPS });
    expect(setupPage.headers.get('strict-transport-security')).toMatch(/max-age=\d{8,}/);
    // First-run setup on a new database: its own battery, through both paths.
    const setupHtml = await setupPage.text();
    const setup = formWhere(actionFormsOf(setupHtml), (form) => form.fields.includes('confirm'));
    const valid: Record<string, string> = {
      orgName: MANAGER.organization,
      name: MANAGER.name,
      email: MANAGER.email,
      password: MANAGER.password,
      confirm: MANAGER.password,
    };
    const broken: [string, string, FieldValue | typeof MISSING][] = [];
    for (const field of Object.keys(valid)) {
      for (const value of [common.empty, common.blank, common.huge, common.missing]) {
        if (field === 'confirm' && value === common.missing) continue;
        broken.push([field, value.label, value.value as FieldValue | typeof MISSING]);
      }
      broken.push([field, 'a file', MISSING]);
    }
    broken.push(['email', 'not an email', 'morgan'], ['email', 'non-ASCII', 'ｍ@例.example']);
    broken.push(['password', '11 characters', 'short pass!'], ['confirm', 'different', 'other']);
    let setupCases = 0;
    for (const [field, label, value] of broken) {
      const fields: Fields = Object.entries(valid).flatMap(([name, v]): Fields => {
        if (name !== field) return [[name, v]];
        if (label === 'a file') return [[name, fileValue()]];
        return value === MISSING ? [] : [[name, value]];
      });
      for (const via of ['fetch', 'nojs'] as const) {
        const response = await fetch(`${app.url}/setup`, {
          method: 'POST',
          headers: {
            ...BEHIND_HTTPS,
            ...(via === 'fetch' ? { 'next-action': setup.actionId } : {}),
          },
          body: via === 'fetch' ? fetchActionBody(setup.bound, fields) : noJsBody(setup, fields),
          redirect: 'manual',
        });
        const text = await response.text();
        expect(response.status, `setup ${field}: ${label} (${via})`).toBe(200);
        expect(text).not.toMatch(ERROR_BOUNDARY);
        if (via === 'fetch') {
          const result = actionResultOf(text);
          const errors = (result?.fieldErrors ?? {}) as Record<string, string[]>;
          const where = field === 'confirm' || field === 'password' ? errors : { [field]: [] };
          expect(result?.status, `setup ${field}: ${label}`).toBe('error');
          expect(
            Object.keys(where).some((name) => (errors[name]?.length ?? 0) > 0),
            `setup ${field}: ${label}: ${JSON.stringify(errors)}`,
          ).toBe(true);
        }
        setupCases += 1;
      }
    }
    expect(setupCases).toBeGreaterThan(40);
    // A foreign origin is refused on the public page too.
    const foreign = await fetch(`${app.url}/setup`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: noJsBody(setup, Object.entries(valid)),
      redirect: 'manual',
    });
    expect(foreign.status).toBe(403);
    // The real setup still works from the public origin.
    const created = await fetch(`${app.url}/setup`, {
      method: 'POST',
      headers: BEHIND_HTTPS,
      body: noJsBody(setup, Object.entries(valid)),
      redirect: 'manual',
    });
    expect(created.status).toBe(303);

    // Sign in as a browser would at https://setpoint.example: read the raw Set-Cookie lines.
    const { csrfLines, sessionLines } = await signInOverHttp(app.url, { origin: publicUrl });
    const csrf = csrfLines.map(cookieAttributes).find((c) => c.name.endsWith('csrf-token'));
    expect(csrf?.name).toBe('__Host-next-auth.csrf-token');
    for (const flag of ['httponly', 'secure', 'samesite=lax']) {
      expect(csrf?.flags.has(flag), `csrf cookie ${flag}`).toBe(true);
    }
    const session = sessionLines
      .map(cookieAttributes)
      .find((c) => c.name === '__Secure-next-auth.session-token');
    expect(session, sessionLines.join('\n')).toBeDefined();
    for (const flag of ['httponly', 'secure', 'samesite=lax', 'path=/']) {
      expect(session?.flags.has(flag), `session cookie ${flag}`).toBe(true);
    }
    const connect = await fetch(`${app.url}/api/connect`, {
      method: 'POST',
      headers: { cookie: session?.pair ?? '', origin: publicUrl },
      body: new URLSearchParams({ returnTo: '/connection' }),
      redirect: 'manual',
    });
    expect(connect.status).toBe(303);
    const flow = connect.headers
      .getSetCookie()
      .map(cookieAttributes)
      .find((c) => c.name === 'setpoint_oauth');
    for (const flag of ['httponly', 'secure', 'samesite=lax', 'path=/api/connect']) {
      expect(flow?.flags.has(flag), `flow cookie ${flag}`).toBe(true);
    }
    expect(app.log()).not.toMatch(/Invalid Server Actions request|⨯|TypeError/);
  } finally {
    await app.stop();
    await sandbox.close();
  }
});
