/** Answers in each family's form: the accounting codes and envelope, the error bodies, a refused value. */
import type { Area } from '../../nodes/shared/tables/spec';
import type { Problem } from '../../nodes/shared/tables/problemText';
import type { Rec } from '../store';
import type { Ctx, Reply } from './context';

export const CODE = {
	ok: 0,
	itemInUse: 1,
	invalidValue: 2,
	reminderNotAllowed: 3,
	fileType: 4,
	invalidUrl: 5,
	notAuthorized: 57,
	notFound: 1000,
	billingProjectNotFound: 1002,
	customer: 3004,
	organization: 6041,
	retainerPartial: 9521,
	retainerChange: 9523,
	negativeAmount: 20004,
	overBalance: 24016,
} as const;

export const isAccounting = (area: Area): boolean => area.family === 'accounting';

export function ok(json: Rec, status = 200): Reply {
	return { status, json };
}

/** Accounting success envelope. */
export function envelope(message = 'success', extra: Rec = {}, status = 200): Reply {
	return { status, json: { code: CODE.ok, message, ...extra } };
}

export function acctError(status: number, code: number, message: string): Reply {
	return { status, json: { code, message } };
}

export function pmError(status: number, errorCode: string, message: string): Reply {
	return { status, json: { errorCode, message } };
}

/** A refused value, in the area's error form, naming every field. */
export function invalid(
	area: Area,
	problems: Problem[],
	location: 'body' | 'query' = 'body',
): Reply {
	if (isAccounting(area)) {
		return acctError(
			400,
			CODE.invalidValue,
			problems.map((p) => `Invalid value passed for ${p.field}: ${p.message}`).join('; '),
		);
	}
	const code = location === 'body' ? 'INVALID_INPUTSTREAM' : 'INVALID_PARAMETER_VALUE';
	return pmError(
		400,
		code,
		problems.map((p) => `Invalid value for "${p.field}": ${p.message}`).join('; '),
	);
}

export function invalidField(
	ctx: Ctx,
	field: string,
	message: string,
	location: 'body' | 'query' = 'body',
): Reply {
	return invalid(ctx.area, [{ field, message }], location);
}
