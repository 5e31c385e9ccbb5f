import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import type { FormErrors } from '../components/form-errors';
import { useLoad } from '../components/use-load';
import { SelectField } from '../components/select-field';
import { ACTIONS_TYPE_ID, DOMAINS_TYPE_ID, MEMBERS_TYPE_ID, PROJECT_SETTINGS_TYPE_ID } from './item-link';
import { typeOptions } from './type-options';
import { CHANGE_TYPES, PAGE_SIZES, withoutEmpty, type TrailFilters } from './trail-filters';
import { UserFilter } from './user-filter';

/** The query fields of the audit trail route, so a 400 naming one shows beside its control. */
export const TRAIL_FIELDS = ['typeId', 'userId', 'changeType', 'from', 'to', 'page', 'limit'] as const;

/**
 * The trail's filters: type (the project's types, plus the type records, applications, the
 * project's settings, membership changes, saved actions and domains), user, change type, a date range and the page size. Every change applies at once and
 * goes back to the first page.
 */
export function TrailFilterForm({ projectId, filters, errors, onChange }: { projectId: string; filters: TrailFilters; errors: FormErrors; onChange: (filters: TrailFilters) => void }) {
  const types = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/types', { params: { path: { projectId } } }))).items, projectId);
  const set = (change: Partial<TrailFilters>) => onChange(withoutEmpty({ ...filters, page: 1, ...change }));
  return (
    <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Type" value={filters.typeId ?? ''} error={errors.fields.typeId} onChange={(event) => set({ typeId: event.target.value })}>
        <option value="">All types</option>
        {typeOptions(types.value ?? []).map(({ id, label }) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
        <option value="types">Type definitions</option>
        <option value="applications">Applications</option>
        <option value={PROJECT_SETTINGS_TYPE_ID}>Project settings</option>
        <option value={MEMBERS_TYPE_ID}>Members</option>
        <option value={ACTIONS_TYPE_ID}>Actions</option>
        <option value={DOMAINS_TYPE_ID}>Domains</option>
      </SelectField>
      <UserFilter projectId={projectId} userId={filters.userId} error={errors.fields.userId} onChange={(userId) => set({ userId })} />
      <SelectField label="Change type" value={filters.changeType ?? ''} error={errors.fields.changeType} onChange={(event) => set({ changeType: CHANGE_TYPES.find((kind) => kind === event.target.value) })}>
        <option value="">Any change</option>
        {CHANGE_TYPES.map((kind) => (
          <option key={kind} value={kind}>
            {kind}
          </option>
        ))}
      </SelectField>
      <Field label="From" type="date" value={filters.from ?? ''} error={errors.fields.from} onChange={(event) => set({ from: event.target.value })} />
      <Field label="To" type="date" value={filters.to ?? ''} error={errors.fields.to} onChange={(event) => set({ to: event.target.value })} />
      <SelectField label="Per page" value={filters.limit} error={errors.fields.limit} onChange={(event) => set({ limit: Number(event.target.value) })}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </SelectField>
    </form>
  );
}
