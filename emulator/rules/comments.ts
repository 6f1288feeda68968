/** Comments of books records and billing projects: a new comment and a record's comments. */
import type { Rec } from '../store';
import { bodyObject, type Ctx, tenantOf } from './context';
import { day } from './formats';

/** Adds a comment record to `comments` of the tenant, under `parentField` = parent id. */
export function addComment(
	ctx: Ctx,
	collection: string,
	parentField: string,
	parentId: string,
	extra: Rec = {},
): Rec {
	const now = ctx.clock.now();
	const body = bodyObject(ctx);
	const user = ctx.tenant?.currentUser;
	const rec: Rec = {
		comment_id: ctx.store.nextId(),
		[parentField]: parentId,
		description: String(body.description ?? ''),
		commented_by_id: user?.zpuid ?? '',
		commented_by: user?.name ?? '',
		is_current_user: true,
		date: day(now),
		date_description: 'few seconds ago',
		time: new Date(now).toISOString().slice(11, 16),
		...extra,
	};
	tenantOf(ctx).put(collection, rec.comment_id, rec);
	return rec;
}

export function commentsOf(
	ctx: Ctx,
	collection: string,
	parentField: string,
	parentId: string,
): Rec[] {
	return tenantOf(ctx)
		.all(collection)
		.filter((c) => c[parentField] === parentId);
}
