/**
 * Irregular Projects operations, named by `special` in the tables:
 * - customFields (project create / update): the "Custom Fields" list becomes top-level body
 *   keys in the documented JSON shapes (the add / remove form for multi-value types on
 *   update), checked against tables/customFieldTypes.ts before anything is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { answerRecords } from '../shared/api/pages';
import type { OperationRun, Special } from '../shared/run/types';
import { inputFailure } from '../shared/api/nodeErrors';
import { buildRequest } from '../shared/api/request';
import { vendorRequest } from '../shared/api/transport';
import { customFieldValues } from './customFields';

const customFields: Special = async (ctx: IExecuteFunctions, run: OperationRun) => {
	const { area, op, values, itemIndex } = run;
	const list = ctx.getNodeParameter('customFields', itemIndex, {}) as IDataObject;
	const entries = (
		Array.isArray(list.values) ? list.values : list.values ? [list.values] : []
	) as IDataObject[];
	let custom: IDataObject;
	try {
		custom = customFieldValues(
			entries,
			op.kind === 'update',
			op.fields.map((f) => f.name),
			ctx.getTimezone(),
		);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { itemIndex });
	}
	const req = buildRequest(area, op, values);
	const body = { ...((req.body as IDataObject) ?? {}), ...custom };
	const res = await vendorRequest(
		run.state,
		area,
		{ ...req, body: Object.keys(body).length ? body : req.body },
		{ itemIndex },
	);
	return answerRecords(ctx.getNode(), area, op, res.body, { itemIndex, values }).map((json) => ({
		json,
	}));
};

export const projectsSpecials: Record<string, Special> = { customFields };
