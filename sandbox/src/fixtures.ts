import type { FixtureName } from './config';
import {
  addMonths,
  goOffline,
  type Address,
  type Building,
  type ComfortSetting,
  DAYS,
  DEFAULT_DESIRED_DEHUMIDITY,
  DEFAULT_DESIRED_HUMIDITY,
  type DataStore,
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  fillDay,
  type HvacMode,
  residentialSchedule,
  type Thermostat,
} from './store';

/** Deterministic generator: the same fixture always has the same ids and values. */
function seededRandom(seed: number): () => number {
  // mulberry32: a small, fast 32-bit generator, plenty for sample data.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const ALL_MODES: HvacMode[] = ['heat', 'auxHeatOnly', 'cool', 'auto', 'off'];
const NO_AUX: HvacMode[] = ['heat', 'cool', 'auto', 'off'];
const HEAT_ONLY: HvacMode[] = ['heat', 'off'];

type Profile = 'residential' | 'office' | 'common' | 'vacant' | 'quiet' | 'heatOnly';

interface BuildingSpec {
  name: string;
  timeZone: string;
  address: Address;
  units: Array<{ name: string; profile: Profile }>;
}

class Generator {
  readonly random: () => number;
  private readonly usedThermostatIds = new Set<string>();

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<Item>(items: readonly Item[]): Item {
    return items[Math.floor(this.random() * items.length)] as Item;
  }

  hex(length: number): string {
    let hex = '';
    for (let index = 0; index < length; index++) {
      hex += Math.floor(this.random() * 16).toString(16);
    }
    return hex;
  }

  thermostatId(): string {
    for (;;) {
      let id = this.pick(['3', '4', '5']);
      for (let digit = 0; digit < 11; digit++) id += String(this.int(0, 9));
      if (!this.usedThermostatIds.has(id)) {
        this.usedThermostatIds.add(id);
        return id;
      }
    }
  }
}

function custom(
  ref: string,
  name: string,
  desiredHeat: number,
  desiredCool: number,
  fan: 'auto' | 'on' = 'auto',
): ComfortSetting {
  return { comfortSettingRef: ref, name, desiredHeat, desiredCool, fanHeat: fan, fanCool: fan };
}

function makeThermostat(
  generator: Generator,
  accountId: string,
  building: Building,
  name: string,
  profile: Profile,
): Thermostat {
  const comfortSettings = defaultComfortSettings();
  let schedule = residentialSchedule();
  let supportedModes: HvacMode[] = generator.pick([ALL_MODES, NO_AUX, NO_AUX]);
  let nextCustomIndex = 1;
  const settings = defaultSettings();
  switch (profile) {
    case 'office':
      comfortSettings.push(custom('smart1', 'Office Hours', 69, 74, 'on'));
      nextCustomIndex = 2;
      schedule = DAYS.map((_, index) => {
        const day = new Array<string>(48).fill('away');
        return index < 5 ? fillDay(day, 15, 36, 'smart1') : day;
      });
      settings.fanMinimumOnTime = 15;
      break;
    case 'common':
      schedule = DAYS.map(() => fillDay(new Array<string>(48).fill('away'), 12, 45, 'home'));
      break;
    case 'vacant':
      comfortSettings.push(custom('smart1', 'Vacant Unit', 58, 85));
      nextCustomIndex = 2;
      schedule = DAYS.map(() => new Array<string>(48).fill('smart1'));
      break;
    case 'quiet':
      comfortSettings.push(custom('smart1', 'Pre-heat', 71, 77));
      comfortSettings.push(custom('smart2', 'Quiet Hours', 67, 79));
      nextCustomIndex = 3;
      schedule = residentialSchedule().map((day) => {
        fillDay(day, 0, 11, 'smart2');
        fillDay(day, 44, 47, 'smart2');
        return day;
      });
      break;
    case 'heatOnly':
      supportedModes = HEAT_ONLY;
      break;
    default:
      if (generator.random() < 0.3) {
        comfortSettings.push(custom('smart1', 'Guest Stay', 71, 75));
        nextCustomIndex = 2;
      }
  }
  const hvacMode: HvacMode =
    supportedModes === HEAT_ONLY
      ? 'heat'
      : generator.pick(['auto', 'auto', 'heat', 'cool'] as const);
  const accessControl = defaultAccessControl();
  if (profile === 'common') {
    accessControl.enabled = true;
    accessControl.passcode = String(generator.int(1000, 9999));
    accessControl.settings = {
      temperature: true,
      systemMode: true,
      schedule: true,
      vacation: true,
      other: false,
    };
  }
  const commercial = profile === 'office' || profile === 'common';
  const alertSettings = defaultAlertSettings();
  if (generator.random() < 0.5) {
    alertSettings.hvacMaintenanceReminder = {
      enabled: true,
      lastMaintenanceDate: `2020-0${generator.int(1, 9)}-1${generator.int(0, 9)}`,
      maintenanceInterval: generator.pick([3, 6, 12]),
      maintenanceIntervalUnits: 'month',
    };
  }
  return {
    thermostatId: generator.thermostatId(),
    accountId,
    buildingId: building.buildingId,
    name,
    thermostatName: name,
    hvacMode,
    pendingMode: null,
    pendingResidentMode: null,
    supportedModes: [...supportedModes],
    temperature: Math.round((66 + generator.random() * 10) * 10) / 10,
    humidity: generator.int(25, 55),
    isResidentMode: profile !== 'office' && profile !== 'common',
    heatCoolMinDelta: generator.pick([5, 5, 5, 4, 3]),
    // Offices and common areas hold a narrower band than homes (no random draw: ids stay put).
    desiredHumidity: commercial ? 40 : DEFAULT_DESIRED_HUMIDITY,
    desiredDehumidity: commercial ? 55 : DEFAULT_DESIRED_DEHUMIDITY,
    connected: true,
    offline: null,
    comfortSettings,
    nextCustomIndex,
    schedule,
    settings: {
      ...settings,
      holdAction: generator.pick(['nextTransition', 'nextTransition', '2hour'] as const),
    },
    accessControl,
    alertSettings,
  };
}

function addBuildings(
  store: DataStore,
  generator: Generator,
  accountId: string,
  specs: BuildingSpec[],
): void {
  for (const spec of specs) {
    const building: Building = {
      buildingId: generator.hex(24),
      accountId,
      name: spec.name,
      timeZone: spec.timeZone,
      address: spec.address,
    };
    store.buildings.set(building.buildingId, building);
    for (const unit of spec.units) {
      const thermostat = makeThermostat(generator, accountId, building, unit.name, unit.profile);
      // Each account's generator avoids its own ids; a clash across accounts would silently
      // replace a thermostat, so it fails loudly (fixtures are deterministic: it never does).
      if (store.thermostats.has(thermostat.thermostatId)) {
        throw new Error(`fixture thermostat id ${thermostat.thermostatId} is used twice`);
      }
      store.thermostats.set(thermostat.thermostatId, thermostat);
    }
  }
}

function apartments(prefix: number, count: number): BuildingSpec['units'] {
  const profiles: Profile[] = ['residential', 'residential', 'quiet', 'residential', 'vacant'];
  return Array.from({ length: count }, (_, index) => ({
    name: `Unit ${prefix + Math.floor(index / 4) * 100 + (index % 4) + 1}`,
    profile: profiles[index % profiles.length] as Profile,
  }));
}

const DEMO_BUILDINGS: BuildingSpec[] = [
  {
    name: 'Harbor View Apartments',
    timeZone: 'America/New_York',
    address: {
      street: '100 Atlantic Ave',
      city: 'Boston',
      region: 'MA',
      postalCode: '02110',
      country: 'US',
    },
    units: [
      { name: 'Lobby', profile: 'common' },
      ...apartments(100, 8),
      { name: 'Fitness Room', profile: 'common' },
    ],
  },
  {
    name: 'Lakeshore Lofts',
    timeZone: 'America/Chicago',
    address: {
      street: '2250 N Lincoln Park W',
      city: 'Chicago',
      region: 'IL',
      postalCode: '60614',
      country: 'US',
    },
    units: [...apartments(200, 6), { name: 'Boiler Room', profile: 'heatOnly' }],
  },
  {
    name: 'Desert Palms Residences',
    timeZone: 'America/Phoenix',
    address: {
      street: '4400 E Camelback Rd',
      city: 'Phoenix',
      region: 'AZ',
      postalCode: '85018',
      country: 'US',
    },
    units: [{ name: 'Leasing Office', profile: 'office' }, ...apartments(300, 5)],
  },
  {
    name: 'Cascade Commons',
    timeZone: 'America/Los_Angeles',
    address: {
      street: '1201 Western Ave',
      city: 'Seattle',
      region: 'WA',
      postalCode: '98101',
      country: 'US',
    },
    units: [...apartments(400, 6), { name: 'Community Room', profile: 'common' }],
  },
  {
    name: 'Front Range Offices',
    timeZone: 'America/Denver',
    address: {
      street: '1600 Champa St',
      city: 'Denver',
      region: 'CO',
      postalCode: '80202',
      country: 'US',
    },
    units: [
      { name: 'Suite 100', profile: 'office' },
      { name: 'Suite 200', profile: 'office' },
      { name: 'Suite 300', profile: 'office' },
      { name: 'Conference Center', profile: 'office' },
      { name: 'Server Closet', profile: 'common' },
    ],
  },
];

const OTHER_BUILDINGS: BuildingSpec[] = [
  {
    name: 'Maple Court',
    timeZone: 'America/Toronto',
    address: {
      street: '55 Bloor St W',
      city: 'Toronto',
      region: 'ON',
      postalCode: 'M4W 1A5',
      country: 'CA',
    },
    units: apartments(100, 3),
  },
];

const LARGE_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Toronto',
];

function largeBuildings(): BuildingSpec[] {
  return Array.from({ length: 12 }, (_, index) => ({
    name: `Portfolio Tower ${String.fromCharCode(65 + index)}`,
    timeZone: LARGE_ZONES[index % LARGE_ZONES.length] as string,
    address: {
      street: `${100 + index * 10} Main St`,
      city: 'Springfield',
      region: 'IL',
      postalCode: '62701',
      country: 'US',
    },
    units: [
      { name: 'Lobby', profile: 'common' as Profile },
      { name: 'Management Office', profile: 'office' as Profile },
      // Tower A is the benchmark's 200-thermostat building; the others have 40 each.
      ...apartments(100, index === 0 ? 198 : 38),
    ],
  }));
}

const HOUR_MS = 3600_000;
/** The demo and large fixtures' offline thermostat was last heard from this long before reset. */
const OFFLINE_SILENCE_MS = (3 * 24 + 4) * HOUR_MS + 17 * 60_000;

interface FleetSite {
  name: string;
  timeZone: string;
  street: string;
  city: string;
  region: string;
  postalCode: string;
  country: 'US' | 'CA';
}

/**
 * 30 buildings across US and Canadian zones (Regina without daylight saving, St. John's at
 * UTC-3:30). Columns: name | zone | street | city | region | postal code | country.
 */
const FLEET_SITES: FleetSite[] = `
Portfolio Tower A | America/New_York | 350 W 34th St | New York | NY | 10001 | US
Beacon Hill Residences | America/New_York | 45 Charles St | Boston | MA | 02114 | US
Schuylkill Yards | America/New_York | 3001 Market St | Philadelphia | PA | 19104 | US
Peachtree Commons | America/New_York | 1280 Peachtree St NE | Atlanta | GA | 30309 | US
Brickell Bay Apartments | America/New_York | 1200 Brickell Bay Dr | Miami | FL | 33131 | US
River North Lofts | America/Chicago | 415 N Dearborn St | Chicago | IL | 60654 | US
Uptown Dallas Flats | America/Chicago | 2500 Cedar Springs Rd | Dallas | TX | 75201 | US
Montrose Gardens | America/Chicago | 1700 Westheimer Rd | Houston | TX | 77098 | US
Mill District Place | America/Chicago | 700 S 2nd St | Minneapolis | MN | 55401 | US
LoDo Station Apartments | America/Denver | 1701 Wynkoop St | Denver | CO | 80202 | US
Wasatch View Residences | America/Denver | 222 S Main St | Salt Lake City | UT | 84101 | US
Camelback Court | America/Phoenix | 2425 E Camelback Rd | Phoenix | AZ | 85016 | US
Sonoran Terrace | America/Phoenix | 1020 E University Blvd | Tucson | AZ | 85719 | US
Capitol Hill Commons | America/Los_Angeles | 1530 Broadway | Seattle | WA | 98122 | US
Pearl District Lofts | America/Los_Angeles | 1120 NW Couch St | Portland | OR | 97209 | US
Mission Bay Residences | America/Los_Angeles | 255 Berry St | San Francisco | CA | 94158 | US
Silver Lake Terrace | America/Los_Angeles | 3300 Sunset Blvd | Los Angeles | CA | 90026 | US
Little Italy Flats | America/Los_Angeles | 1601 India St | San Diego | CA | 92101 | US
Chugach Vista Apartments | America/Anchorage | 510 L St | Anchorage | AK | 99501 | US
Kakaako Tower | Pacific/Honolulu | 1001 Queen St | Honolulu | HI | 96814 | US
King West Residences | America/Toronto | 560 King St W | Toronto | ON | M5V 0L5 | CA
ByWard Market Lofts | America/Toronto | 100 Dalhousie St | Ottawa | ON | K1N 7C9 | CA
Plateau Mont-Royal Suites | America/Toronto | 4300 Rue Saint-Denis | Montreal | QC | H2J 2K9 | CA
Yaletown Gardens | America/Vancouver | 1088 Mainland St | Vancouver | BC | V6B 2T4 | CA
Beltline Commons | America/Edmonton | 1200 12 Ave SW | Calgary | AB | T3C 0P4 | CA
Oliver Square Apartments | America/Edmonton | 10150 117 St NW | Edmonton | AB | T5K 1X5 | CA
Exchange District Lofts | America/Winnipeg | 70 Arthur St | Winnipeg | MB | R3B 1G7 | CA
Cathedral Village Court | America/Regina | 2900 13th Ave | Regina | SK | S4T 1N8 | CA
Spring Garden Residences | America/Halifax | 5640 Spring Garden Rd | Halifax | NS | B3J 1H4 | CA
Water Street Suites | America/St_Johns | 235 Water St | St. John's | NL | A1C 1B6 | CA`
  .trim()
  .split('\n')
  .map((row) => {
    const [name, timeZone, street, city, region, postalCode, country] = row.split(' | ');
    return { name, timeZone, street, city, region, postalCode, country } as FleetSite;
  });

/** Thermostats per fleet building: Tower A 200 (the benchmark's), 24 of 45 and 5 of 44: 1,500. */
function fleetSize(index: number): number {
  if (index === 0) return 200;
  return index <= 24 ? 45 : 44;
}

function fleetBuildings(): BuildingSpec[] {
  return FLEET_SITES.map((site, index) => {
    const fixed: BuildingSpec['units'] = [
      { name: 'Lobby', profile: 'common' },
      { name: index === 0 ? 'Management Office' : 'Leasing Office', profile: 'office' },
    ];
    // Every fifth building (from the sixth) heats its common areas with a boiler.
    if (index > 0 && index % 5 === 0) fixed.push({ name: 'Boiler Room', profile: 'heatOnly' });
    return {
      name: site.name,
      timeZone: site.timeZone,
      address: {
        street: site.street,
        city: site.city,
        region: site.region,
        postalCode: site.postalCode,
        country: site.country,
      },
      units: [...fixed, ...apartments(100, fleetSize(index) - fixed.length)],
    };
  });
}

interface FixtureDefinition {
  /** Seed of the demo account's generator: the same fixture always has the same ids. */
  seed: number;
  buildings: () => BuildingSpec[];
  /** Which demo thermostats (by position) are offline, and how long they were silent before. */
  offline: Array<{ index: number; silenceMs: number }>;
}

const FIXTURES: Record<FixtureName, FixtureDefinition> = {
  demo: {
    seed: 20201201,
    buildings: () => DEMO_BUILDINGS,
    // A unit in the Cascade Commons building.
    offline: [{ index: 26, silenceMs: OFFLINE_SILENCE_MS }],
  },
  large: {
    seed: 424242,
    buildings: largeBuildings,
    offline: [{ index: 26, silenceMs: OFFLINE_SILENCE_MS }],
  },
  fleet: {
    seed: 15_001_500,
    buildings: fleetBuildings,
    // Six, in six buildings, silent from 20 minutes to 9 days: fresh and long outages alike.
    offline: [
      { index: 26, silenceMs: OFFLINE_SILENCE_MS },
      { index: 293, silenceMs: 20 * 60_000 },
      { index: 518, silenceMs: 6 * HOUR_MS },
      { index: 781, silenceMs: 26 * HOUR_MS },
      { index: 1046, silenceMs: (2 * 24 + 8) * HOUR_MS },
      { index: 1377, silenceMs: 9 * 24 * HOUR_MS },
    ],
  },
};

export const DEMO_ACCOUNT_ID = 'acct_demo';
export const OTHER_ACCOUNT_ID = 'acct_other';

/** Builds a fresh data store for the named fixture. `now` anchors the offline thermostats. */
export function buildFixture(name: FixtureName, now: number): DataStore {
  const fixture = FIXTURES[name];
  const store: DataStore = {
    accounts: new Map([
      [DEMO_ACCOUNT_ID, { accountId: DEMO_ACCOUNT_ID, name: 'Demo Property Management' }],
      [OTHER_ACCOUNT_ID, { accountId: OTHER_ACCOUNT_ID, name: 'Northwind Property Co.' }],
    ]),
    users: [
      {
        userId: 'user_demo',
        email: 'demo@sandbox.test',
        password: 'demo-password',
        displayName: 'Dana Demo',
        accountId: DEMO_ACCOUNT_ID,
      },
      {
        userId: 'user_other',
        email: 'other@sandbox.test',
        password: 'other-password',
        displayName: 'Oliver Other',
        accountId: OTHER_ACCOUNT_ID,
      },
    ],
    buildings: new Map(),
    thermostats: new Map(),
  };
  addBuildings(store, new Generator(fixture.seed), DEMO_ACCOUNT_ID, fixture.buildings());
  addBuildings(store, new Generator(777), OTHER_ACCOUNT_ID, OTHER_BUILDINGS);

  const demo = [...store.thermostats.values()].filter(
    (thermostat) => thermostat.accountId === DEMO_ACCOUNT_ID,
  );
  for (const { index, silenceMs } of fixture.offline) {
    const offline = demo[Math.min(demo.length - 1, index)];
    if (!offline) continue;
    goOffline(now, offline, silenceMs);
    offline.name = `${offline.name} (offline)`.slice(0, 64);
  }
  // Hold actions are mostly nextTransition, some 2hour; one askMe and one indefinite.
  const askMe = demo[3];
  if (askMe) askMe.settings.holdAction = 'askMe';
  const indefinite = demo[7];
  if (indefinite) indefinite.settings.holdAction = 'indefinite';
  // One thermostat with a tight heat/cool delta, one with a lockout using all areas.
  const tight = demo[5];
  if (tight) tight.heatCoolMinDelta = 2;
  dateMaintenance(demo, now);
  dateMaintenance(
    [...store.thermostats.values()].filter((t) => t.accountId === OTHER_ACCOUNT_ID),
    now,
  );
  return store;
}

const DAY_MS = 86_400_000;

/**
 * Maintenance dates as a real portfolio's week looks on the day the sandbox starts (its clock's
 * now): of the thermostats with a reminder, the first is overdue (by about 23 days), the next
 * three are due within the week (in about 2, 3 and 4 days), the rest later over the coming
 * months; each last maintenance is one interval before its due date. A due date a whole number of
 * months from no last date (the 31st after a 30-day month) moves a day or two. Deterministic for a
 * fixture and a day.
 */
function dateMaintenance(thermostats: readonly Thermostat[], now: number): void {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const dateIn = (days: number) => new Date(today + days * DAY_MS).toISOString().slice(0, 10);
  const reminded = thermostats.filter((t) => t.alertSettings.hvacMaintenanceReminder.enabled);
  reminded.forEach((thermostat, index) => {
    const wanted = index === 0 ? -23 : index <= 3 ? index + 1 : 20 + ((index * 37) % 150);
    const reminder = thermostat.alertSettings.hvacMaintenanceReminder;
    const months = reminder.maintenanceInterval;
    for (const shift of [0, -1, 1, -2, 2]) {
      const due = dateIn(wanted + shift);
      const last = addMonths(due, -months);
      reminder.lastMaintenanceDate = last;
      if (addMonths(last, months) === due) break;
    }
  });
}
