/**
 * The project-management area (`/api/v3`, document 000): portals, bin, search, projects with
 * typed custom-field values, my tasks; answers and rules in README.md, "Project management".
 */
import type { Field, Operation, Source } from '../../nodes/shared/tables/spec';
import { validateValues } from '../../nodes/shared/tables/validate';
import {
	dateTimeFormProblem,
	customFieldRule as sharedRule,
} from '../../nodes/VendorProjects/customFields';
import { customFieldTypes } from '../../nodes/VendorProjects/tables/customFieldTypes';
import type { BinEntry, CustomFieldDef, Rec, Tenant } from '../store';
import { invalid, invalidField, ok, pmError } from './answers';
import { bodyObject, type Ctx, type Reply, type Rules, tenantOf } from './context';
import { timestampMs } from './formats';
import { genericCreate, genericUpdate } from './generic';
import { listReply } from './lists';
import { GUESS, NOT_FOUND, notFound, refuse } from './refusals';

/** The document passages the project-management refusals rest on. */
const S = {
	trash100: 'Conventions, Limits: "Trash request `items` | 0 to 100 ids"',
	restoreWindow: 'Conventions, Limits: "Restore window | 30 days"',
	sortBy:
		'Conventions, Endpoints: "sort_by (string; sortable fields trashed_time or name, written in the form asc(field))"',
	filterJson: 'Conventions, Endpoints: "filter (JSON string:"',
	customFieldValue:
		'Conventions, Custom field values: "Field type | JSON shape of the value | Limit"',
	addRemoveOnUpdate:
		'Conventions, Custom field values: "update: array holding one object `{ add: [strings], remove: [strings] }`, or the create form to replace all values"',
	dateTimeForm:
		"Conventions, Custom field values: \"Date-time | string, ISO 8601: `yyyy-MM-dd'T'HH:mm:ss'Z'` for UTC, `yyyy-MM-dd'T'HH:mm:ss[+\\|-]HH:mm` for other zones\"",
} as const satisfies Record<string, Source>;

const CUSTOM_FIELDS: readonly Source[] = [S.customFieldValue, S.addRemoveOnUpdate, S.dateTimeForm];

const RESTORE_WINDOW_MS = 30 * 86_400_000;

/** Search module name -> portal collection. */
const SEARCH_MODULES: Record<string, string> = {
	projects: 'projects',
	milestones: 'phases',
	tasklists: 'tasklists',
	tasks: 'tasks',
	bugs: 'issues',
};

function portalRecord(t: Tenant): Rec {
	return {
		id: t.id,
		name: t.name,
		region: t.region,
		is_default: true,
		plan: 'Enterprise',
		owner: t.currentUser,
	};
}

function badParam(source: Source, message: string): Reply {
	return refuse(source, pmError(400, 'INVALID_PARAMETER_VALUE', message));
}

// ---------------------------------------------------------------- trash / bin

interface TrashRequest {
	module: string;
	items: string[];
}

function trashRequests(ctx: Ctx): TrashRequest[] {
	const body = Array.isArray(ctx.body) ? (ctx.body as Rec[]) : [bodyObject(ctx)];
	return body.map((b) => ({
		module: String(b.module),
		items: ((b.items ?? []) as unknown[]).map(String),
	}));
}

function binKey(module: string, id: string): string {
	return `${module}:${id}`;
}

/** Bin entries of the requests; a refusal when one is not in the bin or fails `check` (whose refusals cite `source`). */
function binEntries(
	ctx: Ctx,
	check?: (e: BinEntry) => string | undefined,
	source: Source = GUESS.notFound,
): BinEntry[] | Reply {
	const tenant = tenantOf(ctx);
	const out: BinEntry[] = [];
	for (const r of trashRequests(ctx)) {
		for (const id of r.items) {
			const e = tenant.bin.get(binKey(r.module, id));
			if (!e)
				return badParam(GUESS.notFound, `Record ${id} of module ${r.module} is not in the bin`);
			const problem = check?.(e);
			if (problem) return badParam(source, problem);
			out.push(e);
		}
	}
	return out;
}

function matchesCriterion(entry: Rec, c: Rec): boolean {
	const field = String(entry[String(c.cfid)] ?? '').toLowerCase();
	const values = (Array.isArray(c.value) ? c.value : [c.value]).map((v: unknown) =>
		String(v).toLowerCase(),
	);
	switch (c.criteria_condition) {
		case 'is':
			return values.includes(field);
		case 'is_not':
			return !values.includes(field);
		case 'contains':
			return values.some((v: string) => field.includes(v));
		default:
			return values.some((v: string) => field.startsWith(v));
	}
}

function binFilter(filter: unknown): ((e: Rec) => boolean) | Reply {
	if (filter === undefined) return () => true;
	let parsed: Rec;
	try {
		parsed = typeof filter === 'string' ? JSON.parse(filter) : (filter as Rec);
	} catch {
		return badParam(S.filterJson, 'filter must be JSON');
	}
	const criteria: Rec[] = Array.isArray(parsed?.criteria) ? parsed.criteria : [];
	for (const c of criteria) {
		if (!['module', 'name', 'id'].includes(c.cfid))
			return badParam(
				GUESS.binFilter,
				`filter: cfid "${c.cfid}" is not supported (module, name, id)`,
			);
		if (!['is', 'is_not', 'contains', 'starts_with'].includes(c.criteria_condition)) {
			return badParam(
				GUESS.binFilter,
				`filter: criteria_condition "${c.criteria_condition}" is not supported (is, is_not, contains, starts_with)`,
			);
		}
	}
	const any = /\bOR\b/i.test(String(parsed?.pattern ?? ''));
	return (e) =>
		criteria.length === 0
			? true
			: any
				? criteria.some((c) => matchesCriterion(e, c))
				: criteria.every((c) => matchesCriterion(e, c));
}

// ---------------------------------------------------------------- custom fields

function customFieldRule(def: CustomFieldDef): { field: Field; entry?: Field } | undefined {
	const type = customFieldTypes.find((t) => t.value === def.type);
	return type ? sharedRule(type, def.api_name, def.options ?? []) : undefined;
}

function check(field: Field, value: unknown): string | undefined {
	const op: Operation = {
		value: 'cf',
		name: 'cf',
		action: 'cf',
		description: '',
		kind: 'action',
		method: 'POST',
		path: '/cf',
		fields: [field],
	};
	const problems = validateValues(op, { [field.name]: value }, 'server');
	return problems.length ? problems.map((p) => `"${p.field}" ${p.message}`).join('; ') : undefined;
}

/** Checks and applies the custom-field values of a project body onto `rec`. */
function applyCustomFields(ctx: Ctx, rec: Rec, previous?: Rec): Reply | void {
	const body = bodyObject(ctx);
	for (const def of tenantOf(ctx).customFields.filter((d) => d.module === 'projects')) {
		if (!(def.api_name in body)) continue;
		let value: unknown = body[def.api_name];
		const rule = customFieldRule(def);
		if (!rule) continue;
		const addRemove =
			Array.isArray(value) &&
			value.length === 1 &&
			value[0] &&
			typeof value[0] === 'object' &&
			('add' in value[0] || 'remove' in value[0]);
		if (addRemove && rule.entry) {
			if (!previous)
				return refuse(
					S.addRemoveOnUpdate,
					invalidField(ctx, def.api_name, 'the add / remove form is accepted on update only'),
				);
			const change = (value as Rec[])[0];
			for (const part of ['add', 'remove'] as const) {
				for (const [i, v] of ((change[part] ?? []) as unknown[]).entries()) {
					const problem = check({ ...rule.entry, name: `${def.api_name}[0].${part}[${i}]` }, v);
					if (problem)
						return refuse(
							S.customFieldValue,
							invalid(ctx.area, [{ field: `${def.api_name}[0].${part}[${i}]`, message: problem }]),
						);
				}
			}
			const key = (v: unknown) => JSON.stringify(v);
			const removed = new Set(((change.remove ?? []) as unknown[]).map(key));
			const current = ((previous[def.api_name] ?? []) as unknown[]).filter(
				(v) => !removed.has(key(v)),
			);
			for (const v of (change.add ?? []) as unknown[])
				if (!current.some((c) => key(c) === key(v))) current.push(v);
			const limit = rule.field.maxItems;
			if (limit !== undefined && current.length > limit)
				return refuse(
					S.customFieldValue,
					invalidField(ctx, def.api_name, `must hold at most ${limit} entries`),
				);
			rec[def.api_name] = current;
			continue;
		}
		if (def.type === 'url' && typeof value === 'string') {
			if (value.length > 200)
				return refuse(
					S.customFieldValue,
					invalidField(ctx, def.api_name, 'must be at most 200 characters'),
				);
			if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) value = `https://${value}`;
		}
		const problem = check(
			{ ...rule.field, maxLength: def.type === 'url' ? undefined : rule.field.maxLength },
			value,
		);
		if (problem)
			return refuse(
				S.customFieldValue,
				invalid(ctx.area, [
					{ field: def.api_name, message: problem.replace(`"${def.api_name}" `, '') },
				]),
			);
		const form = def.type === 'dateTime' ? dateTimeFormProblem(value) : undefined;
		if (form) return refuse(S.dateTimeForm, invalidField(ctx, def.api_name, form));
		rec[def.api_name] = value;
	}
}

// ---------------------------------------------------------------- rules

function liveRecord(t: Tenant, module: string, id: string): Rec | undefined {
	return t.get(module, id);
}

export const projectsRules: Rules = {
	'projects.portal.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) => listReply(ctx, 'portals', ctx.store.portalsIn(ctx.region).map(portalRecord)),
	},
	'projects.portal.get': { sources: [], handle: (ctx) => ok(portalRecord(tenantOf(ctx))) },

	'projects.trash.moveToTrash': {
		sources: [S.trash100, GUESS.notFound],
		handle: (ctx) => {
			const t = tenantOf(ctx);
			const [req] = trashRequests(ctx);
			if (req.items.length > 100)
				return refuse(
					S.trash100,
					invalidField(ctx, 'items', `must hold at most 100 entries (got ${req.items.length})`),
				);
			const missing = req.items.find((id) => !liveRecord(t, req.module, id));
			if (missing)
				return badParam(GUESS.notFound, `No live record ${missing} in module ${req.module}`);
			const now = ctx.clock.now();
			for (const id of req.items) {
				const record = liveRecord(t, req.module, id) as Rec;
				t.remove(req.module, id);
				const project = record.project_id
					? (t.get('projects', record.project_id) ?? { id: record.project_id })
					: undefined;
				t.bin.set(binKey(req.module, id), {
					module: req.module,
					id,
					trashedAt: now,
					record,
					entry: {
						id,
						name: record.name,
						module: req.module,
						trashed_time: timestampMs(now),
						trashed_by: { zpuid: t.currentUser.zpuid, name: t.currentUser.name },
						...(project ? { project: { id: project.id, name: project.name } } : {}),
					},
				});
			}
			return ok({
				message: `${req.items.length} record(s) moved to trash`,
				count: req.items.length,
				module: req.module,
				items: req.items,
			});
		},
	},
	'projects.trash.getBin': {
		sources: [S.sortBy, S.filterJson, GUESS.binFilter, GUESS.paging],
		handle: (ctx) => {
			const m = /^(asc|desc)\((trashed_time|name)\)$/.exec(
				ctx.query.sort_by ?? 'desc(trashed_time)',
			);
			if (!m)
				return badParam(
					S.sortBy,
					'sort_by must be asc(field) or desc(field) with field trashed_time or name',
				);
			const filter = binFilter(ctx.query.filter);
			if (typeof filter !== 'function') return filter;
			const [, direction, field] = m;
			const entries = [...tenantOf(ctx).bin.values()]
				.sort((a, b) =>
					field === 'name'
						? String(a.entry.name).localeCompare(String(b.entry.name))
						: a.trashedAt - b.trashedAt,
				)
				.map((e) => e.entry)
				.filter(filter);
			return listReply(ctx, 'bin', direction === 'desc' ? entries.reverse() : entries);
		},
	},
	'projects.trash.restore': {
		sources: [GUESS.notFound, S.restoreWindow],
		handle: (ctx) => {
			const now = ctx.clock.now();
			const entries = binEntries(
				ctx,
				(e) =>
					now - e.trashedAt > RESTORE_WINDOW_MS
						? `Record ${e.id} of module ${e.module} was trashed on ${e.entry.trashed_time}, more than 30 days ago, and cannot be restored`
						: undefined,
				S.restoreWindow,
			);
			if (!Array.isArray(entries)) return entries;
			const t = tenantOf(ctx);
			for (const e of entries) {
				t.bin.delete(binKey(e.module, e.id));
				t.put(e.module, e.id, e.record);
			}
			return ok({ message: `${entries.length} record(s) restored`, count: entries.length });
		},
	},
	'projects.trash.deletePermanently': {
		sources: [GUESS.notFound],
		handle: (ctx) => {
			const entries = binEntries(ctx);
			if (!Array.isArray(entries)) return entries;
			for (const e of entries) tenantOf(ctx).bin.delete(binKey(e.module, e.id));
			return ok({
				message: `${entries.length} record(s) deleted permanently`,
				count: entries.length,
			});
		},
	},
	'projects.trash.emptyBin': {
		sources: [],
		handle: (ctx) => {
			const count = tenantOf(ctx).bin.size;
			tenantOf(ctx).bin.clear();
			return ok({ message: 'Bin emptied', count });
		},
	},

	'projects.search.search': { sources: [GUESS.paging], handle: (ctx) => search(ctx) },
	'projects.search.searchInProject': {
		sources: [GUESS.notFound, GUESS.paging],
		handle: (ctx) =>
			tenantOf(ctx).get('projects', ctx.params.project_id)
				? search(ctx, ctx.params.project_id)
				: notFound(ctx, 'Project', ctx.params.project_id),
	},

	'projects.project.create': {
		sources: [GUESS.notFound, ...CUSTOM_FIELDS],
		handle: (ctx) => {
			const t = tenantOf(ctx);
			const body = bodyObject(ctx);
			const source =
				body.copy_from !== undefined ? t.get('projects', String(body.copy_from)) : undefined;
			if (body.copy_from !== undefined && !source)
				return refuse(
					GUESS.notFound,
					invalidField(ctx, 'copy_from', `no project or template with id ${body.copy_from}`),
				);
			return genericCreate(ctx, (rec) => {
				if (source) {
					for (const [k, v] of Object.entries(source))
						if (!(k in rec) && !['id', 'created_time', 'last_modified_time', 'name'].includes(k))
							rec[k] = structuredClone(v);
				}
				rec.project_type ??= 'active';
				rec.status ??= { id: '1', name: 'Active' };
				rec.owner ??= { zpuid: t.currentUser.zpuid };
				rec.is_public_project ??= false;
				return applyCustomFields(ctx, rec);
			});
		},
	},
	'projects.project.update': {
		sources: [...NOT_FOUND, ...CUSTOM_FIELDS],
		handle: (ctx) =>
			genericUpdate(ctx, (rec, _ctx, previous) => applyCustomFields(ctx, rec, previous)),
	},
	'projects.myTasks.get': {
		sources: [],
		handle: (ctx) => {
			const t = tenantOf(ctx);
			const mine = t
				.all('tasks')
				.filter((task) =>
					((task.owners ?? []) as Rec[]).some((o) => o.zpuid === t.currentUser.zpuid),
				);
			return ok({ tasks: mine });
		},
	},
};

function search(ctx: Ctx, projectId?: string): Reply {
	const t = tenantOf(ctx);
	const term = String(ctx.query.search_term ?? '').toLowerCase();
	const module = ctx.query.module ?? 'all';
	const status = ctx.query.status ?? 'all';
	const modules = module === 'all' ? Object.keys(SEARCH_MODULES) : [module];
	const results: Rec[] = [];
	for (const m of modules) {
		const collection = SEARCH_MODULES[m];
		if (!collection || (projectId && m === 'projects')) continue;
		for (const rec of t.all(collection)) {
			const project = m === 'projects' ? rec : t.get('projects', rec.project_id);
			if (projectId && String(rec.project_id) !== projectId) continue;
			if (status !== 'all' && (project?.project_type ?? 'active') !== status) continue;
			if (
				!String(rec.name ?? '')
					.toLowerCase()
					.includes(term)
			)
				continue;
			results.push({
				id: rec.id,
				name: rec.name,
				module: m,
				...(project ? { project: { id: project.id, name: project.name } } : {}),
			});
		}
	}
	return listReply(ctx, 'results', results);
}
