/** The change types the audit trail filters by (the route's `changeType`). */
export const CHANGE_TYPES = ['created', 'updated', 'deleted'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** Page sizes offered; the route clamps anything above 200. */
export const PAGE_SIZES = [10, 25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** What the audit trail screen shows, as its URL's query keeps it (dates as the date inputs give them, `YYYY-MM-DD`). */
export interface TrailFilters {
  typeId?: string;
  userId?: string;
  changeType?: ChangeType;
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

/** The route's query for the filters: the date range as Unix ms, from the first to the last millisecond of those local days. */
export interface TrailQuery {
  typeId?: string;
  userId?: string;
  changeType?: ChangeType;
  from?: number;
  to?: number;
  page: number;
  limit: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a `YYYY-MM-DD` day, `days` later; undefined for anything else. */
function localMidnight(date: string, days: number): number | undefined {
  const parts = DATE.exec(date);
  if (!parts) return undefined;
  const time = new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]) + days).getTime();
  return Number.isNaN(time) ? undefined : time;
}

export const startOfDay = (date: string): number | undefined => localMidnight(date, 0);

export function endOfDay(date: string): number | undefined {
  const next = localMidnight(date, 1);
  return next === undefined ? undefined : next - 1;
}

const positiveWhole = (text: string | null): number | undefined => (text && /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : undefined);

/** The filters a URL's query names; anything unreadable falls back to no filter (page 1, the default size). */
export function filtersFromSearch(search: string): TrailFilters {
  const params = new URLSearchParams(search);
  const date = (name: string) => DATE.exec(params.get(name) ?? '')?.[0];
  return withoutEmpty({
    typeId: params.get('typeId') ?? undefined,
    userId: params.get('userId') ?? undefined,
    changeType: CHANGE_TYPES.find((kind) => kind === params.get('changeType')),
    from: date('from'),
    to: date('to'),
    page: positiveWhole(params.get('page')) ?? 1,
    limit: PAGE_SIZES.find((size) => size === positiveWhole(params.get('limit'))) ?? DEFAULT_PAGE_SIZE,
  });
}

/** The filters without the ones an emptied control left blank, so none is sent empty. */
export function withoutEmpty(filters: TrailFilters): TrailFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '')) as unknown as TrailFilters;
}

/** The URL query for the filters (`?typeId=...`), leaving out defaults; empty without any. */
export function filtersToSearch(filters: TrailFilters): string {
  const params = new URLSearchParams();
  for (const name of ['typeId', 'userId', 'changeType', 'from', 'to'] as const) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  if (filters.page !== 1) params.set('page', String(filters.page));
  if (filters.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(filters.limit));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The route's query for the filters. */
export function trailQuery(filters: TrailFilters): TrailQuery {
  const from = filters.from ? startOfDay(filters.from) : undefined;
  const to = filters.to ? endOfDay(filters.to) : undefined;
  return {
    ...(filters.typeId ? { typeId: filters.typeId } : {}),
    ...(filters.userId ? { userId: filters.userId } : {}),
    ...(filters.changeType ? { changeType: filters.changeType } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    page: filters.page,
    limit: filters.limit,
  };
}

/** Where the whole trail these filters select downloads as one CSV file (every page, the same items). */
export function trailExportPath(projectId: string, filters: TrailFilters): string {
  const { page: _page, limit: _limit, ...query } = trailQuery(filters);
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
  return `/api/projects/${encodeURIComponent(projectId)}/audit-trail/export${search ? `?${search}` : ''}`;
}

/** How many pages a total fills (at least one, so an empty trail reads "page 1 of 1"). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
