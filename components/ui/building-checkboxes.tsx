/** A building to tick: its id (the value posted) and name. */
export type BuildingChoice = { buildingId: string; name: string };

/**
 * A scrolling list of buildings to tick, posted as `buildingIds` (a building manager's
 * buildings, the buildings a notice covers).
 */
export function BuildingCheckboxes({
  buildings,
  chosen,
  empty,
}: {
  buildings: readonly BuildingChoice[];
  chosen: readonly string[];
  /** What to say when there are none. */
  empty: string;
}) {
  if (buildings.length === 0) return <p className="text-sm text-muted">{empty}</p>;
  return (
    <div className="grid max-h-56 gap-1 overflow-y-auto sm:grid-cols-2">
      {buildings.map((building) => (
        <label key={building.buildingId} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="buildingIds"
            value={building.buildingId}
            defaultChecked={chosen.includes(building.buildingId)}
            className="size-4 accent-brand-600"
          />
          {building.name}
        </label>
      ))}
    </div>
  );
}
