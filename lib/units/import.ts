import 'server-only';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import type { FormState, ReportRow } from '@/lib/platform/forms';
import type { Building } from '@/lib/portfolio/store';
import { createUnit } from '@/lib/portfolio/units';
import { recordUnitEvent } from './change';
import {
  type CsvState,
  MAX_UNITS_CSV_BYTES,
  parseUnitsCsv,
  type UnitLine,
  type UnitLineProblem,
} from './csv';
import { externalIdTaken, saveUnitFields } from './edit';
import { applyUnitEvent, STATE_WORDS, type UnitEvent } from './lifecycle';
import { findUnit, listUnits, type Unit } from './store';

/**
 * A building's units from CSV (lib/units/csv.ts reads it): each line matches a unit of this
 * building by thermostat id, else by external id, else by label; one that matches none and names
 * no thermostat adds an empty unit. A line's label and external id are written with the unit's
 * thermostat relabelled, its state through the lifecycle, and each line gets one result. A line
 * is checked whole before anything of it is written, so a refused line changes nothing. Nothing
 * here calls the service: a state is recorded as on the unit's page, so the run its policy asks
 * for (a turnover) is started as there; thermostats are added on the Add thermostats page. The action opens the
 * building (`manage_building`, and `change_occupancy` where a line sets a state) first.
 */

export type UnitsCsvField = 'csv' | 'file';
export type UnitsCsvState = FormState<UnitsCsvField>;

/** The event that reaches each state a line may set. */
const EVENT_TO: Record<CsvState, UnitEvent> = {
  occupied: { event: 'move_in' },
  vacant: { event: 'move_out' },
  make_ready: { event: 'make_ready' },
};

type ReadLines =
  | { ok: true; lines: (UnitLine | UnitLineProblem)[] }
  | { ok: false; state: UnitsCsvState };

/**
 * The text of a CSV form (a file chosen, else the pasted text, each at most 1 MB), or the field
 * to highlight and why.
 */
export async function csvTextOf(
  form: FormData,
  empty: string,
): Promise<{ ok: true; text: string; field: UnitsCsvField } | { ok: false; state: UnitsCsvState }> {
  const pasted = form.get('csv');
  const file = form.get('file');
  const values = { csv: typeof pasted === 'string' ? pasted : '' };
  const refuse = (field: UnitsCsvField, message: string) => ({
    ok: false as const,
    state: {
      status: 'error' as const,
      message: 'Check the highlighted field; nothing was changed.',
      fieldErrors: { [field]: [message] },
      values,
    },
  });
  const chosen = file instanceof File && file.size > 0 ? file : null;
  if (chosen && chosen.size > MAX_UNITS_CSV_BYTES) {
    return refuse('file', 'That file is over 1 MB; split it.');
  }
  const text = chosen ? await chosen.text() : values.csv;
  if (!chosen && Buffer.byteLength(text) > MAX_UNITS_CSV_BYTES) {
    return refuse('csv', 'That text is over 1 MB; split it.');
  }
  if (text.trim() === '') return refuse('csv', empty);
  return { ok: true, text, field: chosen ? 'file' : 'csv' };
}

/** The form's CSV (a file chosen, else the pasted text), read into lines, or what is wrong. */
export async function readUnitsCsvForm(form: FormData): Promise<ReadLines> {
  const read = await csvTextOf(form, 'Paste the units as CSV, or choose a file.');
  if (!read.ok) return read;
  const parsed = parseUnitsCsv(read.text);
  if ('error' in parsed) {
    return {
      ok: false,
      state: {
        status: 'error',
        message: 'Check the highlighted field; nothing was changed.',
        fieldErrors: { [read.field]: [parsed.error] },
        values: { csv: read.field === 'csv' ? read.text : '' },
      },
    };
  }
  return { ok: true, lines: parsed.lines };
}

/** Whether any line sets a state (which takes `change_occupancy` too). */
export const setsAState = (lines: readonly (UnitLine | UnitLineProblem)[]) =>
  lines.some((line) => 'state' in line && line.state !== null);

/** The building's units, found by thermostat id, external id and label as lines change them. */
class UnitIndex {
  private readonly byThermostat = new Map<string, Unit>();
  private readonly byExternalId = new Map<string, Unit>();
  private readonly byLabel = new Map<string, Unit[]>();

  constructor(units: readonly Unit[]) {
    for (const unit of units) this.add(unit);
  }

  add(unit: Unit) {
    if (unit.thermostatId) this.byThermostat.set(unit.thermostatId, unit);
    if (unit.externalId) this.byExternalId.set(unit.externalId, unit);
    this.byLabel.set(unit.label, [...(this.byLabel.get(unit.label) ?? []), unit]);
  }

  replace(before: Unit, after: Unit) {
    if (before.thermostatId) this.byThermostat.delete(before.thermostatId);
    if (before.externalId) this.byExternalId.delete(before.externalId);
    const labelled = (this.byLabel.get(before.label) ?? []).filter((unit) => unit.id !== before.id);
    this.byLabel.set(before.label, labelled);
    this.add(after);
  }

  /** The unit a line names, none, or why the line names no one unit. */
  match(line: UnitLine): { unit: Unit | null } | { refused: string } {
    if (line.thermostatId) {
      const unit = this.byThermostat.get(line.thermostatId);
      return unit
        ? { unit }
        : {
            refused: `Thermostat ${line.thermostatId} is not in this building’s portfolio: add it on the Add thermostats page first.`,
          };
    }
    const byExternalId = line.externalId ? this.byExternalId.get(line.externalId) : undefined;
    if (byExternalId) return { unit: byExternalId };
    const labelled = line.label ? (this.byLabel.get(line.label) ?? []) : [];
    if (labelled.length > 1) {
      return {
        refused: `${labelled.length} units here are labelled ${line.label}: name the unit by its thermostat id or external id.`,
      };
    }
    return { unit: labelled[0] ?? null };
  }
}

/** Applies every line to the building's units; one result row a line, in the file's order. */
export async function importUnits(input: {
  member: Member;
  building: Building;
  lines: readonly (UnitLine | UnitLineProblem)[];
}): Promise<UnitsCsvState> {
  const { member, building } = input;
  const index = new UnitIndex(await listUnits({ scope: member, buildingId: building.buildingId }));
  const namedBy = new Map<string, number>();
  const report: ReportRow[] = [];
  for (const line of input.lines) {
    report.push(await importLine({ member, building, index, namedBy, line }));
  }
  const count = (outcome: ReportRow['outcome']) =>
    report.filter((row) => row.outcome === outcome).length;
  const [done, unchanged, refused] = [count('done'), count('unchanged'), count('failed')];
  return {
    status: done + unchanged > 0 ? 'success' : 'error',
    message: `${done} changed, ${unchanged} unchanged${refused ? `, ${refused} refused (see below)` : ''}.`,
    report,
  };
}

async function importLine(input: {
  member: Member;
  building: Building;
  index: UnitIndex;
  /** Which line named each unit already: a second line for it is refused. */
  namedBy: Map<string, number>;
  line: UnitLine | UnitLineProblem;
}): Promise<ReportRow> {
  const { member, building, index, namedBy, line } = input;
  if ('problem' in line) {
    return { line: line.line, subject: line.subject, outcome: 'failed', detail: line.problem };
  }
  const subject = line.label || line.externalId || line.thermostatId || '(no label)';
  const refuse = (why: string): ReportRow => ({
    line: line.line,
    subject,
    outcome: 'failed',
    detail: `${why} Nothing was changed.`,
  });
  const matched = index.match(line);
  if ('refused' in matched) return refuse(matched.refused);
  const found = matched.unit;
  const earlier = found ? namedBy.get(found.id) : undefined;
  if (earlier !== undefined) return refuse(`Line ${earlier} already named this unit.`);
  if (!found && !line.label) {
    return refuse('No unit here matches this line, and a new unit needs a label.');
  }
  // The state is checked against the unit's before anything is written: a line is all or nothing.
  const event = line.state ? EVENT_TO[line.state] : null;
  if (event) {
    const fits = applyUnitEvent(found?.occupancy ?? { state: 'occupied' }, event);
    if (!fits.ok) return refuse(fits.reason);
  }

  const did: string[] = [];
  let unit: Unit;
  if (found) {
    const label = line.label || found.label;
    const externalId = line.externalId ?? found.externalId;
    const saved = await saveUnitFields({ member, unit: found, label, externalId });
    if (!saved.ok) return refuse('taken' in saved ? saved.taken : 'The unit has gone.');
    unit = { ...found, label, externalId };
    if (label !== found.label) did.push(`relabelled from ${found.label}`);
    if (externalId !== found.externalId) did.push(`external id ${externalId}`);
    index.replace(found, unit);
  } else {
    const created = await createUnit({
      orgId: member.orgId,
      buildingId: building.buildingId,
      label: line.label,
      externalId: line.externalId,
    });
    if (!created.ok) {
      return refuse(
        created.reason === 'taken'
          ? externalIdTaken(line.externalId ?? '')
          : 'The building has gone.',
      );
    }
    const added = await findUnit({ scope: member, unitId: created.unitId });
    if (!added) return refuse('The building has gone.');
    unit = added;
    did.push(
      `added, with no thermostat${line.externalId ? `, external id ${line.externalId}` : ''}`,
    );
    index.add(unit);
    await logActivity({
      actor: { orgId: member.orgId, userId: member.userId, name: member.name },
      action: 'unit.create',
      summary: `Added ${unit.label} to ${building.name}`,
      buildingId: building.buildingId,
      changes: { unitId: unit.id, label: unit.label, externalId: unit.externalId ?? 'none' },
    });
  }
  namedBy.set(unit.id, line.line);

  if (event) {
    const recorded = await recordUnitEvent({ member, unit, event });
    // Checked above; a change made meanwhile by someone else is said as the lifecycle says it.
    if (!recorded?.ok) {
      const why = recorded ? recorded.reason : 'The unit has gone.';
      return {
        line: line.line,
        subject: unit.label,
        outcome: did.length ? 'done' : 'failed',
        detail: [...did, `the state was not changed: ${why}`].join('; '),
      };
    }
    const now = STATE_WORDS[recorded.state.state].toLowerCase();
    if (recorded.changed)
      did.push(`now ${now} (was ${STATE_WORDS[recorded.from.state].toLowerCase()})`);
  }
  if (did.length === 0) {
    return { line: line.line, subject: unit.label, outcome: 'unchanged', detail: 'Already so.' };
  }
  const detail = did.join('; ');
  return {
    line: line.line,
    subject: unit.label,
    outcome: 'done',
    detail: `${detail.charAt(0).toUpperCase()}${detail.slice(1)}.`,
  };
}
