'use client';

import { type MouseEvent, useEffect, useId, useRef } from 'react';
import { FormMessage } from '@/components/ui/form-parts';
import type { FormState } from '@/lib/platform/forms';

/**
 * A form's field for the summary: its label as the summary says it, and the id of the element a
 * link goes to (the control, or the errors under a group of controls); the default is the id
 * Field and Checkbox give a control, `field-<name>`. `errorsId` is the live region of its errors
 * (default `<id>-errors`, or the id itself when it is one: a group of controls is linked by the
 * errors under it): the link is described by it, so a screen reader reads the error too.
 */
export type SummaryField = string | { label: string; id?: string; errorsId?: string };
export type SummaryFields = Readonly<Record<string, SummaryField>>;

export type SummaryItem =
  | { kind: 'field'; label: string; href: string; errorsId: string }
  | { kind: 'text'; text: string };

/** Form-level errors (`form`) belong to no field: the summary says them itself. */
const FORM_KEYS = new Set(['form']);

/**
 * What a refused state's summary lists, in the order of `fields` (the form's order): a link per
 * field in error (fields that share a target, such as a list and its scope, once), then the
 * form-level errors and the errors of fields the form did not name, as text.
 */
export function summaryItems(state: FormState, fields: SummaryFields = {}): SummaryItem[] {
  const errors = state.fieldErrors ?? {};
  const inError = (key: string) => (errors[key]?.length ?? 0) > 0;
  const items: SummaryItem[] = [];
  const linked = new Set<string>();
  for (const [key, field] of Object.entries(fields)) {
    if (!inError(key)) continue;
    const spec = typeof field === 'string' ? { label: field } : field;
    const id = spec.id ?? `field-${key}`;
    if (linked.has(id)) continue;
    linked.add(id);
    items.push({
      kind: 'field',
      label: spec.label,
      href: `#${id}`,
      errorsId: spec.errorsId ?? (id.endsWith('-errors') ? id : `${id}-errors`),
    });
  }
  const texts = [
    ...Object.keys(errors).filter((key) => FORM_KEYS.has(key)),
    ...Object.keys(errors).filter((key) => !FORM_KEYS.has(key) && !(key in fields)),
  ];
  for (const key of texts) {
    for (const text of errors[key] ?? []) items.push({ kind: 'text', text });
  }
  return items;
}

/** "Fix 1 problem", "Fix 3 problems". */
export const fixHeading = (count: number) => `Fix ${count} problem${count === 1 ? '' : 's'}`;

/**
 * A form's message. A refused save shows a summary at the top of the form: "Fix N problems", the
 * message, and a link to each field in error (its label; its error under the field, which the
 * link is described by). The summary is brought into view and takes the keyboard's focus:
 * - with JavaScript, whenever a new refused state arrives;
 * - without JavaScript, the page the post answers with focuses it on load (`autofocus`, which
 *   a browser honours on any focusable element: `tabIndex={-1}` makes the summary one).
 * Otherwise (a success, or a message with nothing refused) it is FormMessage's notice.
 *
 * The field's error is not repeated in the summary's text: said once, under its field, it reads
 * the same to every reader and a search for it finds one place.
 */
export function ErrorSummary({
  state,
  fields,
  level = 2,
}: {
  state: FormState;
  fields?: SummaryFields;
  /** The heading's level, to fit the page's outline (one below the heading the form is under). */
  level?: 2 | 3 | 4;
}) {
  const ref = useRef<HTMLElement>(null);
  const headingId = useId();
  const messageId = useId();
  const refused = state.status === 'error';

  // A new refused state (each post answers with a new object) brings the summary into view, clear
  // of the sticky header (its scroll margin), and gives it the keyboard's focus.
  useEffect(() => {
    if (state.status !== 'error' || !ref.current) return;
    ref.current.scrollIntoView({ block: 'nearest' });
    ref.current.focus({ preventScroll: true });
  }, [state]);

  if (!refused) return <FormMessage state={state} />;
  const items = summaryItems(state, fields);
  const Heading = (['h2', 'h3', 'h4'] as const)[level - 2] ?? 'h2';
  return (
    <section
      ref={ref}
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: without JavaScript this is how a refused post's answer brings its summary into view and to the keyboard (the issue's "errors in view"); with JavaScript the effect above does it.
      autoFocus
      aria-labelledby={items.length > 0 ? headingId : state.message ? messageId : undefined}
      data-error-summary=""
      className="scroll-mt-40 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 outline-none focus:ring-2 focus:ring-red-600 dark:border-red-800 dark:bg-red-950 dark:text-red-100 dark:focus:ring-red-400"
    >
      <div role="alert" className="grid gap-2">
        {items.length > 0 ? (
          <Heading id={headingId} className="text-base font-semibold">
            {fixHeading(items.length)}
          </Heading>
        ) : null}
        {state.message ? <p id={messageId}>{state.message}</p> : null}
        {items.length > 0 ? (
          <ul className="grid list-disc gap-1 pl-5">
            {items.map((item) =>
              item.kind === 'field' ? (
                <li key={item.href}>
                  <a
                    href={item.href}
                    aria-describedby={item.errorsId}
                    onClick={(event) => focusField(event, item.href.slice(1))}
                    className="font-medium underline underline-offset-2"
                  >
                    {item.label}
                  </a>
                </li>
              ) : (
                <li key={item.text}>{item.text}</li>
              ),
            )}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

const CONTROLS = 'input:not([type="hidden"]):not([disabled]), select, textarea';

/**
 * With JavaScript a link focuses its field (a fragment link only scrolls to it), and brings it to
 * the middle of the screen, clear of the sticky header; a group's link (its errors region)
 * focuses the first control of the group (its fieldset, or else the element around it). Without
 * JavaScript the fragment link scrolls to it.
 */
function focusField(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  const control = target.matches(CONTROLS)
    ? target
    : (target.closest('fieldset') ?? target.parentElement ?? target).querySelector<HTMLElement>(
        CONTROLS,
      );
  event.preventDefault();
  const shown = control ?? target;
  shown.scrollIntoView({ block: 'center' });
  shown.focus({ preventScroll: true });
}
