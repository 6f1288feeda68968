/**
 * The in-memory records per tenant (an accounting organisation or a project-management portal),
 * in named collections keyed by id; no API rule lives here.
 */

/** A stored record: schemaless JSON, as the API sends and receives it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rec = { [key: string]: any };

interface StoredFile {
	fileName: string;
	mimeType: string;
	data: Buffer;
	canSendInMail: boolean;
}

interface SentMail {
	kind: 'invoice' | 'reminder';
	invoiceId: string;
	to: string[];
	cc: string[];
	subject: string;
	body: string;
	time: number;
}

/** A record in the project-management bin. `entry` is what the bin list shows. */
export interface BinEntry {
	module: string;
	id: string;
	trashedAt: number;
	entry: Rec;
	record: Rec;
}

export interface CustomFieldDef {
	/** API name, the key used in project / task bodies. */
	api_name: string;
	label: string;
	/** `value` of a type in nodes/VendorProjects/tables/customFieldTypes.ts. */
	type: string;
	module: 'projects' | 'tasks';
	/** Select types: the predefined options. */
	options?: string[];
}

export class Tenant {
	readonly files = new Map<string, StoredFile>();
	readonly mails: SentMail[] = [];
	readonly bin = new Map<string, BinEntry>();
	readonly customFields: CustomFieldDef[] = [];
	/** Portals: the signed-in user (owner of "my tasks"). */
	currentUser = { zpuid: '8000000000001', name: 'Demo User', email: 'demo.user@example.com' };
	private readonly collections = new Map<string, Map<string, Rec>>();
	private readonly counters = new Map<string, number>();

	constructor(
		readonly kind: 'org' | 'portal',
		readonly region: string,
		readonly id: string,
		public name: string,
	) {}

	col(name: string): Map<string, Rec> {
		let c = this.collections.get(name);
		if (!c) {
			c = new Map();
			this.collections.set(name, c);
		}
		return c;
	}

	all(name: string): Rec[] {
		return [...this.col(name).values()];
	}

	get(name: string, id: string | number | undefined): Rec | undefined {
		return id === undefined ? undefined : this.col(name).get(String(id));
	}

	put(name: string, id: string, rec: Rec): Rec {
		this.col(name).set(String(id), rec);
		return rec;
	}

	remove(name: string, id: string): boolean {
		return this.col(name).delete(String(id));
	}

	/** 1, 2, 3, ... per kind (document numbers such as EST-00001). */
	counter(kind: string): number {
		const n = (this.counters.get(kind) ?? 0) + 1;
		this.counters.set(kind, n);
		return n;
	}
}

export class Store {
	private seq = 0;
	private readonly tenants = new Map<string, Tenant>();

	/** A fresh record id: a string of digits, unique across the emulator. */
	nextId(): string {
		this.seq += 1;
		return String(460000000000000 + this.seq);
	}

	addOrg(region: string, id: string, name: string): Tenant {
		return this.add(new Tenant('org', region, id, name));
	}

	addPortal(region: string, id: string, name: string): Tenant {
		return this.add(new Tenant('portal', region, id, name));
	}

	org(region: string, id: string): Tenant | undefined {
		return this.tenants.get(key('org', region, id));
	}

	portal(region: string, id: string): Tenant | undefined {
		return this.tenants.get(key('portal', region, id));
	}

	portalsIn(region: string): Tenant[] {
		return [...this.tenants.values()].filter((t) => t.kind === 'portal' && t.region === region);
	}

	orgsIn(region: string): Tenant[] {
		return [...this.tenants.values()].filter((t) => t.kind === 'org' && t.region === region);
	}

	private add(t: Tenant): Tenant {
		this.tenants.set(key(t.kind, t.region, t.id), t);
		return t;
	}
}

function key(kind: string, region: string, id: string): string {
	return `${kind}:${region}:${id}`;
}
