import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, RadioGroup } from '@/components/ui/form-parts';

/** The attributes of the first `name` element whose attributes include `having`. */
function element(html: string, name: string, having: Record<string, string> = {}) {
  for (const [, tag, body] of html.matchAll(/<(\w+)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    if (tag !== name) continue;
    const attributes = Object.fromEntries(
      [...(body ?? '').matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, key, value]) => [
        key,
        value ?? '',
      ]),
    );
    if (Object.entries(having).every(([key, value]) => attributes[key] === value))
      return attributes;
  }
  throw new Error(`no <${name}> with ${JSON.stringify(having)} in ${html}`);
}

/**
 * The form primitives every form is built from: each control is tied to its hint and to its
 * errors (a live region) by aria-describedby, and says when it is invalid.
 */
describe('form primitives', () => {
  it('ties a field to its label, hint and errors, and marks it invalid when it has errors', () => {
    const html = renderToStaticMarkup(
      createElement(Field, {
        label: 'Every',
        name: 'interval',
        hint: '1 to 60',
        errors: ['Too many.'],
      }),
    );
    expect(element(html, 'label').for).toBe('field-interval');
    expect(element(html, 'input')).toMatchObject({
      id: 'field-interval',
      name: 'interval',
      'aria-describedby': 'field-interval-hint field-interval-errors',
      'aria-invalid': 'true',
    });
    expect(html).toContain('<p id="field-interval-hint" class="text-xs text-muted">1 to 60</p>');
    expect(element(html, 'div', { id: 'field-interval-errors' })['aria-live']).toBe('polite');
    expect(html).toContain('<p>Too many.</p>');
  });

  it('leaves out the hint and aria-invalid when there are none, but keeps the live region', () => {
    const html = renderToStaticMarkup(createElement(Field, { label: 'Name', name: 'name' }));
    const input = element(html, 'input');
    expect(input['aria-describedby']).toBe('field-name-errors');
    expect(input).not.toHaveProperty('aria-invalid');
    expect(element(html, 'div', { id: 'field-name-errors' })['aria-live']).toBe('polite');
  });

  it('renders a select of its options with the id given, tied like a field', () => {
    const html = renderToStaticMarkup(
      createElement(SelectField, {
        id: 'range-to',
        label: 'To',
        name: 'to',
        defaultValue: 'b',
        errors: ['Pick one.'],
        options: [
          { value: '', label: 'Choose…', disabled: true },
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      }),
    );
    expect(element(html, 'label').for).toBe('range-to');
    expect(element(html, 'select')).toMatchObject({
      id: 'range-to',
      name: 'to',
      'aria-describedby': 'range-to-errors',
      'aria-invalid': 'true',
    });
    expect(element(html, 'option', { value: '' })).toHaveProperty('disabled');
    expect(element(html, 'option', { value: 'b' })).toHaveProperty('selected');
    expect(element(html, 'div', { id: 'range-to-errors' })['aria-live']).toBe('polite');
  });

  it('describes a checkbox by its description and its errors', () => {
    const html = renderToStaticMarkup(
      createElement(Checkbox, { name: 'clear', label: 'Remove it', description: 'Once saved.' }),
    );
    expect(element(html, 'input')).toMatchObject({
      id: 'field-clear',
      type: 'checkbox',
      'aria-describedby': 'field-clear-hint field-clear-errors',
    });
    expect(html).toContain('<p id="field-clear-hint" class="text-xs text-muted">Once saved.</p>');
  });

  it('renders a radio group under its legend, described by its hint and errors', () => {
    const html = renderToStaticMarkup(
      createElement(RadioGroup, {
        name: 'enabled',
        legend: 'Access control',
        hint: 'When on, …',
        options: [
          { value: 'on', label: 'On' },
          { value: 'off', label: 'Off' },
        ],
        defaultValue: 'off',
        errors: ['Choose one.'],
      }),
    );
    expect(element(html, 'fieldset')['aria-describedby']).toBe(
      'field-enabled-hint field-enabled-errors',
    );
    expect(html).toContain('>Access control</legend>');
    expect(element(html, 'input', { value: 'off' })).toMatchObject({
      type: 'radio',
      name: 'enabled',
      checked: '',
      'aria-invalid': 'true',
    });
    expect(element(html, 'input', { value: 'on' })).not.toHaveProperty('checked');
    expect(element(html, 'div', { id: 'field-enabled-errors' })['aria-live']).toBe('polite');
  });
});
