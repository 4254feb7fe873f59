/**
 * Server actions called as an attacker (or a browser without JavaScript) would: read a page's
 * forms, with the hidden `$ACTION_...` fields React renders for progressive enhancement, and
 * post them back with anything in place of the fields, the bound arguments or the cookie.
 *
 * How React 19 / Next.js 16 encode a form whose action is a server function:
 * - unbound: one hidden input `$ACTION_ID_<action id>`;
 * - bound (`action.bind(null, id)`, and every `useActionState` form, whose previous state is
 *   bound too): `$ACTION_REF_<n>` (empty), `$ACTION_<n>:0` = `{"id":"<action id>","bound":"$@1"}`
 *   and `$ACTION_<n>:1` = the bound arguments as a JSON array in React's reply format (strings
 *   starting with `$` are escaped as `$$`), plus `$ACTION_KEY` to match `useActionState`.
 * The no-JS path posts those fields and the form's own as multipart to the page's URL; the
 * client runtime instead posts `Next-Action: <id>` with the arguments (bound ones first) as a
 * reply: part `0` (sent last) is the JSON array, a `FormData` argument is `"$K1"` and its fields
 * are `_1_<name>`.
 */

export type FieldValue = string | File;
export type Fields = [name: string, value: FieldValue][];

export type ActionForm = {
  actionId: string;
  /** The bound arguments as rendered (for `useActionState` forms, the last is the state). */
  bound: unknown[];
  /** The hidden fields that name the action and carry its bound arguments. */
  hidden: [string, string][];
  /** Names of the form's own inputs, selects, textareas and named buttons. */
  fields: string[];
  /** The first rendered `value` of each of those fields. */
  values: Record<string, string>;
  /** The form's opening tag and contents, to find it by label or text. */
  html: string;
};

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};
const unescapeHtml = (text: string) =>
  text.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity);

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

/** Every server-action form of a page's HTML. */
export function actionFormsOf(html: string): ActionForm[] {
  const forms: ActionForm[] = [];
  for (const [form] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    const hidden: [string, string][] = [];
    const fields = new Set<string>();
    const values: Record<string, string> = {};
    let actionId: string | undefined;
    let bound: unknown[] = [];
    for (const [tag] of form.matchAll(/<(?:input|select|textarea|button)\b[^>]*>/g)) {
      const name = attribute(tag, 'name');
      if (!name) continue;
      const value = attribute(tag, 'value') ?? '';
      if (name.startsWith('$ACTION_ID_')) {
        actionId = name.slice('$ACTION_ID_'.length);
        hidden.push([name, value]);
      } else if (name.startsWith('$ACTION_')) {
        hidden.push([name, value]);
        if (name.endsWith(':0')) actionId = (JSON.parse(value) as { id: string }).id;
        if (name.endsWith(':1')) bound = JSON.parse(value) as unknown[];
      } else {
        fields.add(name);
        if (!(name in values) && value !== '') values[name] = value;
      }
    }
    if (actionId) forms.push({ actionId, bound, hidden, fields: [...fields], values, html: form });
  }
  return forms;
}

/** The one form of `forms` that `pick` selects; throws when none or several do. */
export function formWhere(forms: ActionForm[], pick: (form: ActionForm) => boolean): ActionForm {
  const found = forms.filter(pick);
  if (found.length !== 1) throw new Error(`expected one matching form, found ${found.length}`);
  return found[0] as ActionForm;
}

/** React's reply encoding of a string: a leading `$` is escaped. */
const replyValue = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.startsWith('$')
      ? `$${value}`
      : value
    : Array.isArray(value)
      ? value.map(replyValue)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replyValue(v)]))
        : value;

/** The no-JS request body: the action's hidden fields (bound arguments replaced) and `fields`. */
export function noJsBody(form: ActionForm, fields: Fields, bound?: unknown[]): FormData {
  const body = new FormData();
  for (const [name, value] of form.hidden) {
    body.append(name, bound && name.endsWith(':1') ? JSON.stringify(replyValue(bound)) : value);
  }
  for (const [name, value] of fields) body.append(name, value);
  return body;
}

/** The client runtime's request body: `args` with the `FormData` of `fields` last. */
export function fetchActionBody(args: unknown[], fields: Fields): FormData {
  const body = new FormData();
  for (const [name, value] of fields) body.append(`_1_${name}`, value);
  // Last, as React sends it: the server streams the parts and resolves `$K1` when `0` arrives.
  body.append('0', JSON.stringify([...args.map(replyValue), '$K1']));
  return body;
}

/** The rows of a flight (RSC) response: `<hex id>:<row>\n`, text rows `<id>:T<hex bytes>,<text>`. */
function flightRows(flight: string): Map<string, string> {
  const bytes = Buffer.from(flight, 'utf8');
  const rows = new Map<string, string>();
  let at = 0;
  while (at < bytes.length) {
    const colon = bytes.indexOf(0x3a, at);
    if (colon < 0) break;
    const id = bytes.subarray(at, colon).toString('utf8');
    if (bytes[colon + 1] === 0x54) {
      const comma = bytes.indexOf(0x2c, colon);
      const length = Number.parseInt(bytes.subarray(colon + 2, comma).toString('utf8'), 16);
      rows.set(id, bytes.subarray(comma + 1, comma + 1 + length).toString('utf8'));
      at = comma + 1 + length;
    } else {
      const end = bytes.indexOf(0x0a, colon);
      const stop = end < 0 ? bytes.length : end;
      rows.set(id, bytes.subarray(colon + 1, stop).toString('utf8'));
      at = stop + 1;
    }
  }
  return rows;
}

/**
 * The action's result in a server-action (flight) response: the row holding a form state
 * (`status` idle/success/error), or undefined when there is none (a redirect, a failure).
 * Long strings travel in rows of their own (`"$2"`); they are put back in place.
 */
export function actionResultOf(flight: string): Record<string, unknown> | undefined {
  const rows = flightRows(flight);
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string' && /^\$[0-9a-f]+$/.test(value)) {
      return rows.get(value.slice(1)) ?? value;
    }
    if (typeof value === 'string' && value.startsWith('$$')) return value.slice(1);
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  for (const row of rows.values()) {
    if (!row.startsWith('{')) continue;
    try {
      const value = JSON.parse(row) as Record<string, unknown>;
      if (['idle', 'success', 'error'].includes(String(value.status))) {
        return resolve(value) as Record<string, unknown>;
      }
    } catch {
      // Not a JSON row (a hint or module row).
    }
  }
  return undefined;
}

/** A File in place of a text field: a value of the wrong type. */
export const fileValue = () => new File(['1234'], 'value.txt', { type: 'text/plain' });

export type Via = 'fetch' | 'nojs';

export type ActionAnswer = {
  status: number;
  location: string | null;
  /** Where a fetch-path action redirected (`x-action-redirect`, without its `;push` suffix). */
  redirect: string | null;
  body: string;
  /** The action's form state, for the fetch path. */
  result: Record<string, unknown> | undefined;
};

/**
 * Posts one action call to the page at `url` the way `via` does (the client runtime's fetch by
 * default, or a no-JS form post), with `bound` in place of the rendered bound arguments, as the
 * holder of `cookie` and from `origin` (the page's own by default; `''` sends none).
 */
export async function postAction(
  url: string,
  form: ActionForm,
  fields: Fields,
  options: { via?: Via; bound?: unknown[]; cookie: string; origin?: string },
): Promise<ActionAnswer> {
  const via = options.via ?? 'fetch';
  const origin = options.origin ?? new URL(url).origin;
  const headers: Record<string, string> = { ...(origin ? { origin } : {}), cookie: options.cookie };
  let body: FormData;
  if (via === 'fetch') {
    headers['next-action'] = form.actionId;
    headers.accept = 'text/x-component';
    body = fetchActionBody(options.bound ?? form.bound, fields);
  } else {
    body = noJsBody(form, fields, options.bound);
  }
  const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual' });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    redirect: response.headers.get('x-action-redirect')?.split(';')[0] ?? null,
    body: text,
    result: via === 'fetch' ? actionResultOf(text) : undefined,
  };
}
