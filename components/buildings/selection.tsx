'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { FROM_SELECTION } from '@/lib/runs/paths';

/**
 * The rows' checkboxes belong to the bulk-selection form through their `form` attribute, so
 * the table needs no client code; these two leaves only add "select all" and the count. Without
 * JavaScript the checkboxes and the form's button work alone.
 */

function boxesOf(formId: string): HTMLInputElement[] {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return [];
  // Not the copies of rows still streaming in: React keeps them hidden until it swaps them in.
  return [...form.elements].filter(
    (element): element is HTMLInputElement =>
      element instanceof HTMLInputElement &&
      element.type === 'checkbox' &&
      element.name === 'ids' &&
      element.closest('[hidden]') === null,
  );
}

type Counts = { checked: number; total: number };

/** How many of the form's checkboxes are ticked (null before hydration), kept up to date. */
function useSelection(formId: string): [Counts | null, () => void] {
  const [counts, setCounts] = useState<Counts | null>(null);
  // The boxes as last counted, and the ids ticked among them.
  const last = useRef({ boxes: new WeakSet<HTMLInputElement>(), ticked: new Set<string>() });
  const sync = useCallback(() => {
    const boxes = boxesOf(formId);
    for (const box of boxes) {
      // A row read again streams in as a new copy of itself, unticked: it keeps the earlier
      // copy's tick. (A box unticked by hand was counted first, by its change event.)
      if (!box.checked && !last.current.boxes.has(box) && last.current.ticked.has(box.value)) {
        box.checked = true;
      }
    }
    const ticked = boxes.filter((box) => box.checked);
    last.current = {
      boxes: new WeakSet(boxes),
      ticked: new Set(ticked.map((box) => box.value)),
    };
    const next = { checked: ticked.length, total: boxes.length };
    // Kept when unchanged: the page's every change counts again, and most change nothing here.
    setCounts((previous) =>
      previous?.checked === next.checked && previous.total === next.total ? previous : next,
    );
  }, [formId]);
  useEffect(() => {
    sync();
    // Checkboxes tied by the form attribute sit outside the form: their events reach the document.
    const onChange = (event: Event) => {
      const form = (event.target as HTMLInputElement | null)?.form;
      if (form?.id === formId) sync();
    };
    document.addEventListener('change', onChange);
    // A row read again streams in and replaces its earlier copy: count again.
    const observer = new MutationObserver(sync);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('change', onChange);
      observer.disconnect();
    };
  }, [formId, sync]);
  return [counts, sync];
}

export function SelectAll({ form }: { form: string }) {
  const [counts, sync] = useSelection(form);
  const all = counts !== null && counts.checked > 0 && counts.checked === counts.total;
  const some = counts !== null && counts.checked > 0 && !all;
  return (
    <input
      type="checkbox"
      aria-label="Select every thermostat on this page"
      className="size-4 align-middle"
      // Inert until it can act: without JavaScript it could not.
      disabled={counts === null}
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = some;
      }}
      onChange={(event) => {
        for (const box of boxesOf(form)) {
          if (box.checked === event.target.checked) continue;
          box.checked = event.target.checked;
          // Setting `checked` fires no event: say so, for the count and anything else listening.
          box.dispatchEvent(new Event('change', { bubbles: true }));
        }
        sync();
      }}
    />
  );
}

/**
 * How many rows are ticked, inside the selection form. With JavaScript a submit with none ticked
 * goes nowhere and this says to tick them first; without it the form posts, carrying
 * `FROM_SELECTION`, and the bulk page says so instead.
 */
export function SelectedCount({ form }: { form: string }) {
  const [counts] = useSelection(form);
  // A submit was tried with nothing ticked (until something is).
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    const element = document.getElementById(form);
    if (!(element instanceof HTMLFormElement)) return;
    const onSubmit = (event: SubmitEvent) => {
      if (boxesOf(form).some((box) => box.checked)) return;
      event.preventDefault();
      setRefused(true);
    };
    element.addEventListener('submit', onSubmit);
    return () => element.removeEventListener('submit', onSubmit);
  }, [form]);
  const ticked = counts?.checked ?? 0;
  useEffect(() => {
    if (ticked > 0) setRefused(false);
  }, [ticked]);
  const none = counts !== null && counts.checked === 0;
  return (
    <>
      <input type="hidden" form={form} name={FROM_SELECTION.name} value={FROM_SELECTION.value} />
      {counts === null ? null : (
        <span role="status" className={`text-sm ${none && refused ? 'text-danger' : 'text-muted'}`}>
          {none
            ? refused
              ? 'Nothing is ticked: tick the thermostats to change first.'
              : 'None selected'
            : `${counts.checked} selected`}
        </span>
      )}
    </>
  );
}
