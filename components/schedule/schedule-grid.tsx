'use client';

import {
  type KeyboardEvent,
  type PointerEvent,
  useActionState,
  useEffect,
  useOptimistic,
  useRef,
  useState,
} from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { FormAction, FormState } from '@/lib/platform/forms';
import {
  type ArrowKey,
  applyRange,
  BLOCKS_PER_DAY,
  type BlockPosition,
  blockSpan,
  blockTime,
  currentBlock,
  DAY_LABELS,
  describeRange,
  inRange,
  moveFocus,
  rangeBetween,
  type SlotRange,
} from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';
import { timeZoneName } from '@/lib/platform/words';

export type ScheduleEntry = { ref: string; name: string; color: string; known: boolean };

type Selection = { anchor: BlockPosition; focus: BlockPosition };
type Change = { range: SlotRange; ref: string };

const idle: FormState = { status: 'idle' };
const KEYS = new Set<string>(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End']);
const BLOCKS = Array.from({ length: BLOCKS_PER_DAY }, (_, block) => block);

/** The range a posted form describes (the hidden inputs below), for the optimistic grid. */
function changeOf(data: FormData): Change | null {
  const days = data.getAll('days').filter((day) => DAYS.includes(day as never));
  const first = Number(data.get('from'));
  const last = Number(data.get('to'));
  const ref = data.get('comfortSettingRef');
  if (
    !days.length ||
    !Number.isInteger(first) ||
    !Number.isInteger(last) ||
    typeof ref !== 'string'
  )
    return null;
  return {
    range: { days: days as SlotRange['days'], firstSlot: first, lastSlot: last },
    ref,
  };
}

/**
 * The week as a grid (days across, half hours down). Select a range by dragging, by tapping its
 * first and last block, or with the arrow keys (Shift extends); apply a comfort setting to it.
 * The change shows at once and goes back if the service refuses it. `apply` comes bound to the
 * thermostat from the server page, as the plain form's does.
 */
export function ScheduleGrid({
  apply,
  timeZone,
  week,
  entries,
  initialNow,
}: {
  apply: FormAction;
  timeZone: string;
  week: string[][];
  entries: ScheduleEntry[];
  initialNow: BlockPosition;
}) {
  const [shown, showChange] = useOptimistic(week, (current, change: Change) =>
    applyRange(current, change.range, change.ref),
  );
  const [selection, setSelection] = useState<Selection | null>(null);
  const tapAnchor = useRef<BlockPosition | null>(null);
  const [state, dispatch, pending] = useActionState(async (previous: FormState, data: FormData) => {
    const change = changeOf(data);
    if (change) showChange(change);
    const next = await apply(previous, data);
    setAnswered(true);
    // Saved: the selection has done its job (unless another was made meanwhile). A refused
    // change keeps it, to try again.
    if (next.status === 'success' && change) {
      const saved = change.range;
      setSelection((current) => {
        const shown = current ? rangeBetween(current.anchor, current.focus) : null;
        const same =
          shown?.days.join() === saved.days.join() &&
          shown?.firstSlot === saved.firstSlot &&
          shown?.lastSlot === saved.lastSlot;
        if (!same) return current;
        tapAnchor.current = null;
        return null;
      });
    }
    return next;
  }, idle);
  const [focus, setFocus] = useState<BlockPosition>(initialNow);
  const [now, setNow] = useState<BlockPosition>(initialNow);
  const [ready, setReady] = useState(false);
  const [dragging, setDragging] = useState(false);
  /** The bar's last answer is still the news (until the next selection starts). */
  const [answered, setAnswered] = useState(false);
  const [ref, setRef] = useState(entries.find((entry) => entry.known)?.ref ?? '');
  const lastPointer = useRef<string>('mouse');
  const gridRef = useRef<HTMLTableElement>(null);

  // Selecting needs JavaScript: until it runs, the page offers the plain form instead.
  useEffect(() => setReady(true), []);

  useEffect(() => {
    const tick = () => setNow(currentBlock(new Date(), timeZone));
    tick();
    const timer = setInterval(tick, 30_000);
    return () => clearInterval(timer);
  }, [timeZone]);

  useEffect(() => {
    if (!dragging) return;
    const stop = () => setDragging(false);
    window.addEventListener('pointerup', stop);
    window.addEventListener('pointercancel', stop);
    return () => {
      window.removeEventListener('pointerup', stop);
      window.removeEventListener('pointercancel', stop);
    };
  }, [dragging]);

  useEffect(() => {
    const grid = gridRef.current;
    if (!grid?.contains(document.activeElement)) return;
    grid
      .querySelector<HTMLElement>(`[data-day="${focus.dayIndex}"][data-block="${focus.block}"]`)
      ?.focus();
  }, [focus]);

  const byRef = new Map(entries.map((entry) => [entry.ref, entry]));
  const range = selection ? rangeBetween(selection.anchor, selection.focus) : null;
  const choices = entries.filter((entry) => entry.known);
  const nameOf = (value: string) => byRef.get(value)?.name ?? `Unknown setting ${value}`;

  const select = (position: BlockPosition, extend: boolean) => {
    setFocus(position);
    setAnswered(false);
    setSelection((current) => ({
      anchor: extend && current ? current.anchor : position,
      focus: position,
    }));
  };

  const onPointerDown = (event: PointerEvent<HTMLTableCellElement>, position: BlockPosition) => {
    lastPointer.current = event.pointerType;
    if (event.button !== 0) return;
    if (event.pointerType === 'touch') return; // taps are handled on click; touch keeps scrolling
    event.preventDefault(); // no text selection while dragging
    event.currentTarget.focus();
    select(position, event.shiftKey);
    setDragging(true);
  };

  const onTap = (position: BlockPosition) => {
    if (lastPointer.current !== 'touch') return;
    // Touch: the first tap starts a range, the second tap ends it.
    const anchor = tapAnchor.current;
    setFocus(position);
    setAnswered(false);
    if (anchor) {
      setSelection({ anchor, focus: position });
      tapAnchor.current = null;
    } else {
      setSelection({ anchor: position, focus: position });
      tapAnchor.current = position;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    if (KEYS.has(event.key)) {
      event.preventDefault();
      select(moveFocus(focus, event.key as ArrowKey), event.shiftKey);
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      select(focus, event.shiftKey);
    } else if (event.key === 'Escape') {
      setSelection(null);
    }
  };

  const nowRef = shown[now.dayIndex]?.[now.block];

  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Times are in the building’s time zone, <strong>{timeZoneName(timeZone)}</strong>. Now:{' '}
        {DAY_LABELS[DAYS[now.dayIndex] ?? 'monday']} {blockSpan(now.block)}
        {nowRef ? `, ${nameOf(nowRef)}` : ''}.
      </p>

      <div className="overflow-x-auto">
        <table
          ref={gridRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the APG data grid on a table; keys are handled in onKeyDown
          role="grid"
          aria-label={`Weekly schedule, ${timeZoneName(timeZone)}`}
          aria-multiselectable="true"
          aria-describedby={ready ? 'grid-selection' : undefined}
          aria-busy={pending || undefined}
          onKeyDown={onKeyDown}
          className="w-full min-w-72 table-fixed border-collapse text-xs select-none"
        >
          <thead>
            <tr>
              <th scope="col" className="w-14 sm:w-16">
                <span className="sr-only">Time</span>
              </th>
              {DAYS.map((day) => (
                <th
                  scope="col"
                  key={day}
                  className="pb-1 font-medium text-slate-700 dark:text-slate-300"
                >
                  <span aria-hidden="true" className="sm:hidden">
                    {DAY_LABELS[day].slice(0, 3)}
                  </span>
                  <span className="sr-only sm:not-sr-only">{DAY_LABELS[day]}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {BLOCKS.map((block) => (
              <tr key={block} className="h-3.5">
                <th
                  scope="row"
                  className="relative pr-3 text-right align-top leading-none font-normal text-slate-600 tabular-nums dark:text-slate-400"
                >
                  {/* Every half hour is labelled for screen readers; hours are printed. */}
                  <span className={block % 2 === 0 ? '-mt-1 block' : 'sr-only'}>
                    {blockTime(block)}
                  </span>
                  {now.block === block ? (
                    <span
                      aria-hidden="true"
                      title="Now"
                      className="absolute top-1/2 right-0.5 -translate-y-1/2 text-[10px] leading-none text-danger"
                    >
                      ▶
                    </span>
                  ) : null}
                </th>
                {DAYS.map((day, dayIndex) => {
                  const value = shown[dayIndex]?.[block] ?? '';
                  const entry = byRef.get(value);
                  const selected = range ? inRange(range, dayIndex, block) : false;
                  const isNow = now.dayIndex === dayIndex && now.block === block;
                  const isFocus = focus.dayIndex === dayIndex && focus.block === block;
                  const position = { dayIndex, block };
                  return (
                    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is a touch tap; keys are handled by the grid (onKeyDown on the table)
                    <td
                      key={day}
                      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the grid above (explicit, for aria-selected)
                      role="gridcell"
                      data-day={dayIndex}
                      data-block={block}
                      tabIndex={isFocus ? 0 : -1}
                      aria-selected={selected}
                      aria-label={`${DAY_LABELS[day]} ${blockSpan(block)}, ${nameOf(value)}${isNow ? ', now' : ''}`}
                      onPointerDown={(event) => onPointerDown(event, position)}
                      onPointerEnter={() => {
                        if (dragging) select(position, true);
                      }}
                      onClick={() => onTap(position)}
                      onFocus={() => setFocus(position)}
                      style={{
                        backgroundColor: entry?.color ?? '#e2e8f0',
                        backgroundImage: selected
                          ? 'repeating-linear-gradient(135deg, rgb(15 23 42 / 0.55) 0 2px, transparent 2px 5px)'
                          : undefined,
                        boxShadow: selected ? 'inset 0 0 0 2px rgb(15 23 42)' : undefined,
                      }}
                      className={`relative cursor-cell border-l-2 border-white p-0 focus-visible:z-10 focus-visible:outline-offset-0 dark:border-slate-900 ${
                        block % 2 === 0
                          ? 'border-t border-t-white/70 dark:border-t-slate-900/60'
                          : ''
                      }`}
                    >
                      {isNow ? (
                        <span
                          aria-hidden="true"
                          className="absolute inset-0 border-2 border-slate-950 shadow-[inset_0_0_0_1px_white] dark:border-white"
                        />
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* After the grid (focus order: select, then apply). While a selection waits to be applied,
          and while the bar says how the last one went, it sticks to the bottom of the window,
          opaque above the cells scrolling under it; never during a drag, where it would cover the
          blocks being dragged over. */}
      {ready ? (
        <form
          action={dispatch}
          aria-label="Apply a comfort setting to the selected blocks"
          data-stuck={(selection !== null || answered) && !dragging ? '' : undefined}
          className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 data-stuck:sticky data-stuck:bottom-0 data-stuck:z-20 data-stuck:shadow-[0_-4px_12px_-6px_rgb(15_23_42/0.3)] sm:flex sm:flex-wrap sm:items-end dark:border-slate-700 dark:bg-slate-950"
        >
          {state.message ? (
            <div className="sm:basis-full">
              <Notice tone={state.status === 'success' ? 'success' : 'error'}>
                {state.message}
                {state.fieldErrors
                  ? Object.values(state.fieldErrors)
                      .flat()
                      .map((error) => (
                        <span key={error} className="block">
                          {error}
                        </span>
                      ))
                  : null}
              </Notice>
            </div>
          ) : null}
          <p id="grid-selection" aria-live="polite" className="text-sm sm:min-w-56 sm:flex-1">
            {range ? (
              <>
                Selected: <strong>{describeRange(range)}</strong>
              </>
            ) : (
              'Drag across blocks, tap the first and last block, or use the arrow keys (Shift extends) to select.'
            )}
          </p>
          {range ? (
            <>
              {range.days.map((day) => (
                <input key={day} type="hidden" name="days" value={day} />
              ))}
              <input type="hidden" name="from" value={range.firstSlot} />
              <input type="hidden" name="to" value={range.lastSlot} />
            </>
          ) : null}
          <div className="grid gap-1">
            <label htmlFor="grid-comfort" className="text-sm font-medium">
              Comfort setting for the selection
            </label>
            <select
              id="grid-comfort"
              name="comfortSettingRef"
              value={ref}
              onChange={(event) => setRef(event.target.value)}
              className="min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {choices.map((entry) => (
                <option key={entry.ref} value={entry.ref}>
                  {entry.name}
                </option>
              ))}
            </select>
          </div>
          <div className="flex gap-2">
            <Button type="submit" disabled={!range || !ref || pending}>
              {pending ? 'Applying…' : 'Apply to selection'}
            </Button>
            <Button
              variant="ghost"
              disabled={!range}
              onClick={() => {
                setSelection(null);
                tapAnchor.current = null;
              }}
            >
              Clear
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
