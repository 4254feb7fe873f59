import type { TemplateFormValues } from '@/lib/templates/form';

/**
 * What each section of the template form is drawn from: the values shown (the initial ones, or
 * what was posted, checkboxes included) and the errors by field.
 */
export type SectionProps = {
  values: Partial<TemplateFormValues>;
  errors: Partial<Record<string, string[]>>;
};

/** Whether a checkbox is ticked in the values shown. */
export const isChecked = (values: Partial<TemplateFormValues>, field: string) =>
  values[field] === 'on';
