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
        {row.attention ? (
          // Said in words to everyone (the sign is only a cue): "Needs attention: Offline".
          <span data-tone="warn" className="mt-1 flex items-start gap-1 text-xs font-medium">
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              fill="currentColor"
              className="mt-px size-3.5 shrink-0"
            >
              <path d="M8.3 2.9a2 2 0 0 1 3.4 0l6.1 10.6A2 2 0 0 1 16.1 16.5H3.9a2 2 0 0 1-1.7-3L8.3 2.9ZM10 7a1 1 0 0 0-1 1v3a1 1 0 1 0 2 0V8a1 1 0 0 0-1-1Zm0 8a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Z" />
            </svg>
            <span>
              <span className="sr-only">Needs attention: </span>
              {row.attention.join(', ')}
            </span>
          </span>
        ) : null}
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
