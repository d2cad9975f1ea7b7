// The Audit log's filters, from its form to the query string of the log and export routes: the person
// ("user:{id}", or a kind of caller "access:"), the subject kind, the action, and a day range read in the
// browser's time zone (from the start of the first day to the start of the day after the last, since the
// route's `to` is exclusive).

/** The filters as the form holds them ('' for none). */
export interface AuditFilters {
  /** `kind:id` (`user:usr_1`), or `kind:` for any caller of that kind. */
  actor: string;
  subject_kind: string;
  action: string;
  /** Days, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

/** No filter. */
export const EMPTY_FILTERS: AuditFilters = { actor: '', subject_kind: '', action: '', from: '', to: '' };

const text = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value.trim() : '';
};

/** The filters of the form's data. */
export const filtersOf = (data: FormData): AuditFilters => ({
  actor: text(data, 'actor'),
  subject_kind: text(data, 'subject_kind'),
  action: text(data, 'action'),
  from: text(data, 'from'),
  to: text(data, 'to'),
});

/** The start of local day `day` (`YYYY-MM-DD`) plus `days`, as an ISO time; '' for a day that is not one. */
const dayStart = (day: string, days = 0): string => {
  const [year, month, date] = day.split('-').map(Number);
  if (year === undefined || month === undefined || date === undefined) return '';
  const start = new Date(year, month - 1, date + days);
  return Number.isNaN(start.getTime()) ? '' : start.toISOString();
};

/**
 * The query string of `filters` for the log (with a page size of 50 when `paged`) or the export: only the
 * filters set, each encoded.
 */
export const auditQuery = (filters: AuditFilters, paged = true): string => {
  const query = new URLSearchParams();
  const [actorKind = '', actorId = ''] = filters.actor.split(/:(.*)/s);
  if (actorKind !== '') query.set('actor_kind', actorKind);
  if (actorId !== '') query.set('actor_id', actorId);
  if (filters.subject_kind !== '') query.set('subject_kind', filters.subject_kind);
  if (filters.action !== '') query.set('action', filters.action);
  const from = filters.from === '' ? '' : dayStart(filters.from);
  const to = filters.to === '' ? '' : dayStart(filters.to, 1);
  if (from !== '') query.set('from', from);
  if (to !== '') query.set('to', to);
  if (paged) query.set('limit', '50');
  return query.toString();
};
