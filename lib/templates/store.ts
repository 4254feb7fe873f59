import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { notYours } from '@/lib/access/not-yours';
import { type Template, templateSchema } from '@/lib/templates/schema';
import { getDb } from '@/lib/db/client';
import { templates } from '@/lib/db/schema';

/**
 * The organisation's template library. Reads take the organisation; writes take the author (their
 * organisation and the name the list shows): the actions check `manage_templates` first
 * (app/(app)/templates/actions.ts, through `openAction`). A name already used in the organisation
 * (ignoring case) is an answer, not an exception. A template is stored as `templateSchema` gives it (°F, names,
 * never a passcode) and parsed again when read.
 */

export type StoredTemplate = {
  id: string;
  orgId: string;
  name: string;
  template: Template;
  updatedByName: string;
  createdAt: Date;
  updatedAt: Date;
};

/** Who writes: their organisation and the name the list shows. */
export type TemplateAuthor = { orgId: string; name: string };

export type TemplateRefusal = {
  ok: false;
  reason: 'not_found' | 'duplicate_name';
  message: string;
  /** For the form: the name field's error when the name is taken. */
  fieldErrors?: { name: string[] };
};

const templateId = z.uuid();

const refuse = (reason: TemplateRefusal['reason'], message: string): TemplateRefusal => ({
  ok: false,
  reason,
  message,
});

function duplicate(name: string): TemplateRefusal {
  const message = `A template called “${name}” already exists (names ignore case). Choose another name.`;
  return { ...refuse('duplicate_name', message), fieldErrors: { name: [message] } };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
  return code === '23505' || causeCode === '23505';
}

function storedOf(row: typeof templates.$inferSelect): StoredTemplate {
  // Written only through the schema; parsed again so every reader gets the typed template.
  const template = templateSchema.parse({ ...row.body, name: row.name });
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    template,
    updatedByName: row.updatedByName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** What is stored: the template as validated (the name lives in its column as well). */
function bodyOf(template: Template): { name: string; body: Record<string, unknown> } {
  const parsed = templateSchema.parse(template);
  return { name: parsed.name, body: parsed as unknown as Record<string, unknown> };
}

/** The organisation's templates, by name. */
export async function listTemplates({ orgId }: { orgId: string }): Promise<StoredTemplate[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(templates)
    .where(eq(templates.orgId, orgId))
    .orderBy(asc(sql`lower(${templates.name})`), asc(templates.createdAt));
  return rows.map(storedOf);
}

/** One template of the organisation, or null (also for an id that is not a template id at all). */
export async function findTemplate({
  orgId,
  templateId: id,
}: {
  orgId: string;
  templateId: unknown;
}): Promise<StoredTemplate | null> {
  const parsed = templateId.safeParse(id);
  if (!parsed.success) return null;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.orgId, orgId), eq(templates.id, parsed.data)));
  return row ? storedOf(row) : null;
}

export async function createTemplate({
  member,
  template,
}: {
  member: TemplateAuthor;
  template: Template;
}): Promise<{ ok: true; template: StoredTemplate } | TemplateRefusal> {
  const { name, body } = bodyOf(template);
  const db = await getDb();
  const rows = await db
    .insert(templates)
    .values({ orgId: member.orgId, name, body, updatedByName: member.name })
    .returning()
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return null;
      throw error;
    });
  const row = rows?.[0];
  if (!row) return duplicate(name);
  return { ok: true, template: storedOf(row) };
}

/** Replaces a template's name and sections; `before` is what it replaced (for the activity log). */
export async function updateTemplate({
  member,
  templateId: id,
  template,
}: {
  member: TemplateAuthor;
  templateId: unknown;
  template: Template;
}): Promise<{ ok: true; before: StoredTemplate; template: StoredTemplate } | TemplateRefusal> {
  const before = await findTemplate({ orgId: member.orgId, templateId: id });
  if (!before) return refuse('not_found', notYours('template'));
  const { name, body } = bodyOf(template);
  const db = await getDb();
  const rows = await db
    .update(templates)
    .set({ name, body, updatedByName: member.name, updatedAt: new Date() })
    .where(and(eq(templates.orgId, member.orgId), eq(templates.id, before.id)))
    .returning()
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return null;
      throw error;
    });
  if (rows === null) return duplicate(name);
  const row = rows[0];
  // Deleted by someone else between the read and the write.
  if (!row) return refuse('not_found', notYours('template'));
  return { ok: true, before, template: storedOf(row) };
}

/** Deletes a template; planned runs keep their own copy of it (their link is cleared). */
export async function deleteTemplate({
  member,
  templateId: id,
}: {
  member: TemplateAuthor;
  templateId: unknown;
}): Promise<{ ok: true; template: StoredTemplate } | TemplateRefusal> {
  const parsed = templateId.safeParse(id);
  if (!parsed.success) return refuse('not_found', notYours('template'));
  const db = await getDb();
  const [row] = await db
    .delete(templates)
    .where(and(eq(templates.orgId, member.orgId), eq(templates.id, parsed.data)))
    .returning();
  if (!row) return refuse('not_found', notYours('template'));
  return { ok: true, template: storedOf(row) };
}
