import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorSummary, fixHeading, summaryItems } from '@/components/ui/error-summary';
import type { FormState } from '@/lib/platform/forms';

/**
 * A refused save's summary, at the top of the form: "Fix N problems", the message, a link to each
 * field in error (described by the error under the field), and, rendered on the server (a post
 * without JavaScript), focused on load so the page opens on it.
 */

const refused: FormState = {
  status: 'error',
  message: 'Check the highlighted fields; nothing was saved.',
  fieldErrors: {
    buildingIds: ['Choose buildings of your organisation.'],
    url: ['Use an https:// address.'],
    buildingScope: ['Choose all buildings or some.'],
    form: ['Reload the page and try again.'],
  },
};
const FIELDS = {
  url: 'Endpoint address',
  description: 'Description',
  buildingScope: { label: 'Which buildings', id: 'webhook-buildings-errors' },
  buildingIds: { label: 'Which buildings', id: 'webhook-buildings-errors' },
};

describe('the error summary', () => {
  it('lists the fields in error in the form’s order, each once, then what belongs to none', () => {
    expect(summaryItems(refused, FIELDS)).toEqual([
      {
        kind: 'field',
        label: 'Endpoint address',
        href: '#field-url',
        errorsId: 'field-url-errors',
      },
      {
        kind: 'field',
        label: 'Which buildings',
        href: '#webhook-buildings-errors',
        errorsId: 'webhook-buildings-errors',
      },
      { kind: 'text', text: 'Reload the page and try again.' },
    ]);
    expect(fixHeading(1)).toBe('Fix 1 problem');
    expect(fixHeading(3)).toBe('Fix 3 problems');
  });

  it('renders focused on load, with the heading, the message and a link to each field', () => {
    const html = renderToStaticMarkup(
      createElement(ErrorSummary, { state: refused, fields: FIELDS }),
    );
    expect(html).toMatch(/^<section tabindex="-1" autofocus="" aria-labelledby="[^"]+"/);
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<h2 id="[^"]+"[^>]*>Fix 3 problems<\/h2>/);
    expect(html).toMatch(/<p id="[^"]+">Check the highlighted fields; nothing was saved.<\/p>/);
    expect(html).toMatch(
      /<a href="#field-url" aria-describedby="field-url-errors"[^>]*>Endpoint address<\/a>/,
    );
    expect(html).toContain('href="#webhook-buildings-errors"');
    expect(html).toContain('<li>Reload the page and try again.</li>');
    // Each field's error is said once, under its field, not again here.
    expect(html).not.toContain('Use an https:// address.');
  });

  it('brings a refusal with no field into view too, and leaves other states to the notice', () => {
    const alone = renderToStaticMarkup(
      createElement(ErrorSummary, {
        state: { status: 'error', message: 'The service is busy; try again in a minute.' },
      }),
    );
    expect(alone).toMatch(/^<section tabindex="-1" autofocus="" aria-labelledby="[^"]+"/);
    expect(alone).not.toContain('<h2');
    expect(alone).toContain('The service is busy; try again in a minute.');

    const saved = renderToStaticMarkup(
      createElement(ErrorSummary, { state: { status: 'success', message: 'Saved.' } }),
    );
    expect(saved).not.toContain('autofocus');
    expect(saved).toContain('role="status"');
    expect(saved).toContain('Saved.');
    expect(renderToStaticMarkup(createElement(ErrorSummary, { state: { status: 'idle' } }))).toBe(
      '',
    );
  });
});
