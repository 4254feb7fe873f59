'use client';

import type { RowCells } from '@/lib/readings/row-cells';

/**
 * A row of a building's table. A client component for its cost, not for state: a server
 * component's output travels twice, as HTML and again as its element tree in the page's RSC
 * payload, and a 200-row building spent more time serialising that tree than drawing the rows.
 * As a client leaf, the payload carries only the row's few strings (formatted on the server), and
 * the row is still in the first HTML, working without JavaScript: its checkbox belongs to the
 * selection form by its `form` attribute.
 */
export function RowView({ row, selectionForm }: { row: RowCells; selectionForm: string | null }) {
  const { status } = row;
  return (
    <tr data-state={row.state} aria-busy={row.state === 'stale' || undefined}>
      {selectionForm ? (
        <td>
          <input
            type="checkbox"
            name="ids"
            value={row.thermostatId}
            form={selectionForm}
            aria-label={`Select ${row.label}`}
          />
        </td>
      ) : null}
      <th scope="row">
        {/* A plain link: a client Link per row costs every view hydration for little. */}
        <a href={`/thermostats/${row.thermostatId}`}>{row.label}</a>
        {row.showId ? <small>{row.thermostatId}</small> : null}
      </th>
      {status ? (
        <>
          <td>{status.temperature}</td>
          <td>{status.humidity}</td>
          <td>
            {status.mode}
            {status.pendingMode ? (
              <small data-tone="warn">→ {status.pendingMode} (pending)</small>
            ) : null}
          </td>
          <td>{status.heat}</td>
          <td>{status.cool}</td>
          <td>{status.resident}</td>
          <td data-tone={status.online ? 'ok' : 'warn'}>{status.connection}</td>
        </>
      ) : (
        <td colSpan={7} className="col-span-7">
          Not read yet
        </td>
      )}
      <td>
        {row.readAt ? (
          <time dateTime={row.readAt} data-tone={row.problem ? 'warn' : undefined}>
            {row.age}
          </time>
        ) : (
          '—'
        )}
        {row.state === 'stale' ? <small>refreshing…</small> : null}
        {row.problem ? <small data-tone="warn">Not refreshed: {row.problem}</small> : null}
      </td>
    </tr>
  );
}
