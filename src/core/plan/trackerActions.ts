/**
 * Tracker actions (rules §5): `create` (bulk `items`), `update` (one item by `index` or
 * `index_path`, or bulk `items`), `add` (under `parent_index_path`). `index` is 1-based and
 * addresses a top-level item; `index: 0` with status `completed` marks the whole checklist
 * complete. Every rejection says what to send instead. A status update or an add re-derives the
 * status of the changed item's ancestors only: every other item keeps the status it has, as a
 * tracker VT Code wrote may hold a parent whose status is not derived from its children.
 */
import * as z from 'zod';
import {
  TASK_STATUSES,
  cloneTracker,
  deriveAncestors,
  deriveParents,
  dropDuplicateItems,
  makeItem,
  parseItemText,
  type TaskItem,
  type TaskStatus,
  type Tracker,
} from './tracker';

export const INDEX_PATH_PATTERN = /^[1-9][0-9]*(\.[1-9][0-9]*)*$/;

const statusSchema = z.enum(['pending', 'in_progress', 'completed', 'blocked']);

type ItemInput =
  string | { description: string; status?: TaskStatus; files?: string[]; verify?: string[]; children?: ItemInput[] };

const itemInputSchema: z.ZodType<ItemInput> = z.lazy(() =>
  z.union([
    z.string().describe('Item text; "Action -> files: a, b -> verify: npm test" is split into structured fields'),
    z.object({
      description: z.string(),
      status: statusSchema.optional(),
      files: z.array(z.string()).optional(),
      verify: z.array(z.string()).optional(),
      children: z.array(itemInputSchema).optional(),
    }),
  ]),
);

/** The `task_tracker` tool's arguments. Semantic rules are checked by `applyTrackerAction`. */
export const trackerActionSchema = z.object({
  action: z
    .enum(['create', 'update', 'add'])
    .describe('create: replace the checklist with items; update: change one item or sync all; add: append'),
  title: z.string().optional().describe('Checklist title (create only)'),
  items: z
    .array(itemInputSchema)
    .optional()
    .describe('Bulk items for create, bulk synchronization for update, or several items for add'),
  index: z
    .number()
    .optional()
    .describe('1-based top-level item index; 0 only with status "completed" for the whole checklist'),
  index_path: z.string().optional().describe('Hierarchical 1-based path such as "2.1"'),
  parent_index_path: z.string().optional().describe('For add: the parent item, e.g. "2"; omit to add at the top level'),
  status: statusSchema.optional(),
  description: z.string().optional().describe('Item text for add, or new text for update'),
  files: z.array(z.string()).optional(),
  verify: z.array(z.string()).optional(),
});

export type TrackerAction = z.infer<typeof trackerActionSchema>;

type Result = { ok: true; tracker: Tracker } | { ok: false; error: string };

const fail = (error: string): Result => ({ ok: false, error });

function toItem(input: ItemInput): TaskItem {
  if (typeof input === 'string') return makeItem(input);
  return deriveParents(makeItem({ ...input, children: (input.children ?? []).map(toItem) }));
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length > 0 ? i.path.join('.') : 'arguments';
      if (i.code === 'invalid_value' && i.path[0] === 'status') {
        return `status: must be one of ${TASK_STATUSES.join(', ')}`;
      }
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/** Resolves an `index_path` to the item list holding it and its position there. */
function locate(
  items: TaskItem[],
  path: string,
  field: string,
): { list: TaskItem[]; at: number; item: TaskItem } | string {
  if (!INDEX_PATH_PATTERN.test(path)) {
    return `${field} "${path}" is invalid: use 1-based numbers joined by dots, e.g. "2" or "2.1"`;
  }
  const parts = path.split('.').map(Number);
  let list = items;
  let where = 'the checklist';
  for (let depth = 0; depth < parts.length; depth++) {
    const n = parts[depth] as number;
    if (n > list.length) {
      const has = list.length === 0 ? 'no items' : `items 1-${list.length}`;
      return `${field} "${path}" does not exist: ${where} has ${has}`;
    }
    const item = list[n - 1] as TaskItem;
    if (depth === parts.length - 1) return { list, at: n - 1, item };
    list = item.children;
    where = `item ${parts.slice(0, depth + 1).join('.')}`;
  }
  return `${field} "${path}" is empty`;
}

function setStatusDeep(item: TaskItem, status: TaskStatus): TaskItem {
  return { ...item, status, children: item.children.map((c) => setStatusDeep(c, status)) };
}

/** Keeps files/verify of existing items (matched by description) that the sync leaves out. */
function mergeSync(previous: readonly TaskItem[], next: readonly TaskItem[]): TaskItem[] {
  return next.map((item) => {
    const old = previous.find((p) => p.description === item.description);
    if (!old) return item;
    return deriveParents({
      ...item,
      files: item.files.length > 0 ? item.files : [...old.files],
      verify: item.verify.length > 0 ? item.verify : [...old.verify],
      children: mergeSync(old.children, item.children),
    });
  });
}

/** Applies one tracker action to a copy of `t`. The input tracker is never modified. */
export function applyTrackerAction(t: Tracker, action: unknown): Result {
  const parsed = trackerActionSchema.safeParse(action);
  if (!parsed.success) return fail(`invalid task_tracker arguments: ${describeIssues(parsed.error)}`);
  const a = parsed.data;
  const hasIndex = a.index !== undefined;
  const hasPath = a.index_path !== undefined;
  if (hasIndex && hasPath) return fail('use either index or index_path, not both');
  if ((hasIndex || hasPath) && a.items !== undefined) {
    return fail('items is for bulk synchronization: send it without index or index_path');
  }
  if (hasIndex && (!Number.isInteger(a.index) || (a.index as number) < 0)) {
    return fail(`index ${a.index} is invalid: use a whole number from 1 (index 0 only with status "completed")`);
  }
  const tracker = cloneTracker(t);
  switch (a.action) {
    case 'create': {
      if (hasIndex || hasPath || a.parent_index_path !== undefined) {
        return fail('create replaces the whole checklist: send items only (no index, index_path or parent_index_path)');
      }
      if (!a.items || a.items.length === 0) return fail('create needs a non-empty items list');
      return {
        ok: true,
        tracker: { title: a.title?.trim() || tracker.title, items: dropDuplicateItems(a.items.map(toItem)) },
      };
    }
    case 'add': {
      if (hasIndex || hasPath)
        return fail('add takes parent_index_path (e.g. "2") for where to add, not index or index_path');
      const inputs: ItemInput[] = a.items ?? (a.description !== undefined ? [a.description] : []);
      if (inputs.length === 0 || inputs.some((i) => (typeof i === 'string' ? i : i.description).trim() === '')) {
        return fail('add needs a non-empty description (or items)');
      }
      const added = inputs.map((i) => {
        const item = toItem(i);
        const withMeta = makeItem({
          description: typeof i === 'string' ? i : i.description,
          status: a.status ?? item.status,
          files: [...item.files, ...(a.files ?? [])],
          verify: [...item.verify, ...(a.verify ?? [])],
          children: item.children,
        });
        return deriveParents(withMeta);
      });
      if (a.parent_index_path === undefined) {
        tracker.items.push(...added);
        return { ok: true, tracker };
      }
      const found = locate(tracker.items, a.parent_index_path, 'parent_index_path');
      if (typeof found === 'string') return fail(found);
      found.item.children.push(...added);
      const parent = a.parent_index_path.split('.').map(Number);
      return { ok: true, tracker: { ...tracker, items: deriveAncestors(tracker.items, [...parent, 1]) } };
    }
    case 'update': {
      if (a.parent_index_path !== undefined)
        return fail('parent_index_path is only for add; update takes index or index_path');
      if (a.items !== undefined) {
        if (a.items.length === 0) return fail('update with items needs at least one item (it replaces the checklist)');
        return {
          ok: true,
          tracker: { ...tracker, items: mergeSync(tracker.items, dropDuplicateItems(a.items.map(toItem))) },
        };
      }
      if (!hasIndex && !hasPath) {
        return fail('update needs index (1-based), index_path (e.g. "2.1") or items for bulk synchronization');
      }
      if (a.index === 0) {
        if (a.status !== 'completed') {
          return fail(
            'index 0 means "the whole checklist" and is only valid with status "completed"; use a 1-based index for one item',
          );
        }
        return { ok: true, tracker: { ...tracker, items: tracker.items.map((i) => setStatusDeep(i, 'completed')) } };
      }
      if (a.status === undefined && a.description === undefined && !a.files && !a.verify) {
        return fail('update needs something to change: status, description, files or verify');
      }
      const path = hasPath ? (a.index_path as string) : String(a.index);
      const found = locate(tracker.items, path, hasPath ? 'index_path' : 'index');
      if (typeof found === 'string') return fail(hasPath ? found : found.replace(/^index "(\d+)"/, 'index $1'));
      let item = found.item;
      if (a.description !== undefined) {
        const text = parseItemText(a.description);
        item = {
          ...item,
          description: text.description,
          files: text.files.length ? text.files : item.files,
          verify: text.verify.length ? text.verify : item.verify,
        };
      }
      if (a.files) item = { ...item, files: [...new Set(a.files)] };
      if (a.verify) item = { ...item, verify: [...new Set(a.verify)] };
      if (a.status !== undefined) item = setStatusDeep(item, a.status);
      found.list[found.at] = item;
      if (a.status === undefined) return { ok: true, tracker };
      return { ok: true, tracker: { ...tracker, items: deriveAncestors(tracker.items, path.split('.').map(Number)) } };
    }
  }
}
