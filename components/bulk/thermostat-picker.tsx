'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SearchField } from '@/components/ui/field';

/** A building and its thermostats, as the picker offers them. */
export type BulkBuilding = {
  buildingId: string;
  name: string;
  thermostats: { thermostatId: string; label: string }[];
};

/**
 * A group of thermostats, as the picker offers it: its id (the value posted as `groupIds`), its
 * name, and its thermostats within the member's scope (lib/groups/store.ts `resolveGroup`).
 */
export type PickerGroup = { groupId: string; name: string; thermostatIds: string[] };

/**
 * Thermostats across buildings: a filter, select-all per building, groups, and single picks.
 * The boxes are named, so the form posts the selection without JavaScript too; the filter only
 * hides rows (a hidden row's tick still counts). What a form action receives:
 *
 * - `thermostatIds`: each ticked thermostat (one field each);
 * - `allIn`: each building whose "select all" is ticked;
 * - `groupIds`: each group ticked (only with `groups` given).
 *
 * Read them with `selectionFromForm` (lib/groups/selection.ts): it expands buildings and groups to their
 * thermostats within the member's scope. Without JavaScript, ticking a building or a group posts
 * only its id; with JavaScript it also ticks its thermostats, and unticking one of them unticks
 * the building or group box (so it is no longer posted).
 *
 * Props: `buildings` (with their thermostats, in scope), `selected` and `onChange` (the ticked
 * ids, held by the form), and optionally `groups` (none: no group chooser).
 */
export function ThermostatPicker({
  buildings,
  selected,
  onChange,
  groups = [],
}: {
  buildings: BulkBuilding[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  /** Groups to choose from; leave out for a picker without them. */
  groups?: PickerGroup[];
}) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matches = (building: BulkBuilding, t: BulkBuilding['thermostats'][number]) =>
    needle === '' ||
    t.label.toLowerCase().includes(needle) ||
    t.thermostatId.includes(needle) ||
    building.name.toLowerCase().includes(needle);
  const shownIn = (building: BulkBuilding) =>
    new Set(building.thermostats.filter((t) => matches(building, t)).map((t) => t.thermostatId));
  const shownByBuilding = new Map(buildings.map((b) => [b.buildingId, shownIn(b)]));
  const shown = [...shownByBuilding.values()].flatMap((ids) => [...ids]);
  const toggle = (ids: string[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange(next);
  };

  return (
    <section aria-labelledby="picker-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 basis-full sm:basis-auto sm:flex-1">
          <h2 id="picker-heading" className="text-lg font-medium">
            Thermostats
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-muted">
            {selected.size} selected
          </p>
        </div>
        <SearchField
          id="bulk-filter"
          label="Filter"
          placeholder="Unit, id or building"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
        <Button variant="secondary" onClick={() => toggle(shown, true)}>
          Select all shown
        </Button>
        <Button variant="ghost" onClick={() => onChange(new Set())}>
          Clear selection
        </Button>
      </div>
      {groups.length > 0 ? (
        <GroupChooser groups={groups} selected={selected} toggle={toggle} />
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {buildings.map((building) => (
          <BuildingGroup
            key={building.buildingId}
            building={building}
            shown={shownByBuilding.get(building.buildingId) ?? new Set()}
            selected={selected}
            toggle={toggle}
          />
        ))}
        {shown.length === 0 ? <p className="text-sm text-muted">No thermostat matches.</p> : null}
      </div>
    </section>
  );
}

/** Each group as a box: ticking it ticks its thermostats (and, posted, names the group). */
function GroupChooser({
  groups,
  selected,
  toggle,
}: {
  groups: PickerGroup[];
  selected: Set<string>;
  toggle: (ids: string[], on: boolean) => void;
}) {
  const id = useId();
  return (
    <fieldset className="grid content-start gap-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">Groups</legend>
      <p className="-mt-1 text-xs text-muted">
        A ticked group counts its thermostats that you can see, as the group holds them when you
        review the change.
      </p>
      <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
        {groups.map((group) => (
          <GroupBox
            key={group.groupId}
            id={`${id}-${group.groupId}`}
            group={group}
            selected={selected}
            toggle={toggle}
          />
        ))}
      </ul>
    </fieldset>
  );
}

function GroupBox({
  id,
  group,
  selected,
  toggle,
}: {
  id: string;
  group: PickerGroup;
  selected: Set<string>;
  toggle: (ids: string[], on: boolean) => void;
}) {
  const ids = group.thermostatIds;
  const count = ids.filter((t) => selected.has(t)).length;
  const all = ids.length > 0 && count === ids.length;
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <li className="flex items-center gap-2">
      <input
        ref={box}
        id={id}
        type="checkbox"
        name="groupIds"
        value={group.groupId}
        checked={all}
        disabled={ids.length === 0}
        onChange={(event) => toggle(ids, event.currentTarget.checked)}
        className="size-4 accent-brand-600"
      />
      <label htmlFor={id} className="min-w-0 truncate text-sm">
        {group.name} ({ids.length})
      </label>
    </li>
  );
}

function BuildingGroup({
  building,
  shown,
  selected,
  toggle,
}: {
  building: BulkBuilding;
  shown: Set<string>;
  selected: Set<string>;
  toggle: (ids: string[], on: boolean) => void;
}) {
  const id = useId();
  const ids = building.thermostats.map((t) => t.thermostatId);
  const count = ids.filter((t) => selected.has(t)).length;
  const all = count === ids.length;
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <fieldset
      hidden={shown.size === 0}
      className="grid content-start gap-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <legend className="px-1 text-sm font-semibold">{building.name}</legend>
      <div className="flex items-center gap-2 border-b border-slate-100 pb-2 dark:border-slate-800">
        <input
          ref={box}
          id={`${id}-all`}
          type="checkbox"
          name="allIn"
          value={building.buildingId}
          checked={all}
          onChange={(event) => toggle(ids, event.currentTarget.checked)}
          className="size-4 accent-brand-600"
        />
        <label htmlFor={`${id}-all`} className="text-sm font-medium">
          Select all in {building.name} ({count}/{ids.length})
        </label>
      </div>
      <ul className="grid max-h-64 gap-1 overflow-y-auto sm:grid-cols-2">
        {building.thermostats.map((t) => (
          <li
            key={t.thermostatId}
            hidden={!shown.has(t.thermostatId)}
            className="flex items-center gap-2"
          >
            <input
              id={`${id}-${t.thermostatId}`}
              type="checkbox"
              name="thermostatIds"
              value={t.thermostatId}
              checked={selected.has(t.thermostatId)}
              onChange={(event) => toggle([t.thermostatId], event.currentTarget.checked)}
              className="size-4 accent-brand-600"
            />
            <label htmlFor={`${id}-${t.thermostatId}`} className="min-w-0 truncate text-sm">
              {t.label || t.thermostatId}
              <span className="sr-only"> ({t.thermostatId})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
