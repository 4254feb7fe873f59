/**
 * The comfort setting a status names. The service gives the name of the setting in force (not
 * its ref), cut to 12 characters, so a name of exactly 12 may be the start of a longer one.
 */

const SHORTENED_AT = 12;

export function mayBeShortened(name: string): boolean {
  return name.length >= SHORTENED_AT;
}

/**
 * The setting's full name: the one of that name (any case), else the only one whose name starts
 * with a 12-character name; a name matching none is shown as the service gives it.
 */
export function comfortSettingNamed(name: string, settings: readonly { name: string }[]): string {
  const key = name.trim().toLowerCase();
  const exact = settings.find((setting) => setting.name.trim().toLowerCase() === key);
  if (exact) return exact.name;
  if (!mayBeShortened(name)) return name;
  const longer = settings.filter((setting) => setting.name.trim().toLowerCase().startsWith(key));
  return longer.length === 1 && longer[0] ? longer[0].name : name;
}
