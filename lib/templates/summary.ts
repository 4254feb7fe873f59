import { getEnv } from '@/lib/platform/env';
import { budgetWindows } from '@/lib/service/budget-windows';
import { type PlanSummary, summarisePlan, type ThermostatPlan } from './plan';
import { TEMPLATE_SECTIONS, type TemplateSection } from './schema';

/** A template (or any body of one, such as a one-off change's), for which sections it has. */
export type TemplateSections = Partial<Record<TemplateSection, unknown>>;

/** How many thermostats a section of the plan changes, of those that can take the plan. */
export type SectionCount = { section: TemplateSection; changing: number; of: number };

/** A plan's summary with its one line per section (absent in plans summarised before). */
export type PlanSummaryWithSections = PlanSummary & { sections?: SectionCount[] };

type ItemPlan = { thermostatId: string; plan: Record<string, unknown> | null };

/**
 * A planned run's summary over the item plans given: all of a run's when it is planned, or only
 * those a member sees (`planSummaryAsSeen`, lib/templates/runs.ts), so that counts, calls and time are never summed over
 * thermostats outside their scope. Its time is at the pace a run is applied (`refresh`).
 */
export function summariseItemPlans(items: readonly ItemPlan[]): PlanSummaryWithSections {
  return {
    ...summarisePlan(
      items.map((item) => ({
        thermostatId: item.thermostatId,
        plan: (item.plan ?? {
          operations: [],
          diff: [],
          unchanged: false,
          problems: ['Not planned.'],
          scheduleProvenFewest: true,
        }) as unknown as ThermostatPlan,
      })),
      budgetWindows(getEnv().SERVICE_RATE_LIMIT, 'refresh'),
    ),
    sections: sectionCounts(items),
  };
}

/**
 * For each section, on how many of the thermostats that can take the plan (planned, with no
 * problem) it changes something, in the template's order of sections: the sections some thermostat
 * changes, and those of `template` (which change on none: they already match everywhere). An item
 * plans only what differs, so a section that changes nowhere is known from the template alone.
 */
export function sectionCounts(
  items: readonly Pick<ItemPlan, 'plan'>[],
  template?: TemplateSections | null,
): SectionCount[] {
  const plans = items
    .map((item) => item.plan as Partial<ThermostatPlan> | null)
    .filter(
      (plan): plan is Partial<ThermostatPlan> =>
        plan !== null && Array.isArray(plan.problems) && plan.problems.length === 0,
    );
  const changing = new Map<TemplateSection, number>();
  for (const plan of plans) {
    const sections = new Set((Array.isArray(plan.diff) ? plan.diff : []).map((d) => d.section));
    for (const section of sections) changing.set(section, (changing.get(section) ?? 0) + 1);
  }
  return TEMPLATE_SECTIONS.filter(
    (section) => changing.has(section) || template?.[section] !== undefined,
  ).map((section) => ({ section, changing: changing.get(section) ?? 0, of: plans.length }));
}

/**
 * The summary's sections, with those of `template` that no thermostat changes (a summary only
 * knows the sections that change somewhere), in the template's order of sections.
 */
export function summarySections(
  summary: PlanSummaryWithSections,
  template?: TemplateSections | null,
): SectionCount[] {
  const known = new Map((summary.sections ?? []).map((count) => [count.section, count]));
  const of = summary.changing + summary.unchanged;
  return TEMPLATE_SECTIONS.filter(
    (section) => known.has(section) || template?.[section] !== undefined,
  ).map((section) => known.get(section) ?? { section, changing: 0, of });
}
