/**
 * The one rule of "changed since the last apply": the service's time of a change is after the
 * apply's, which is the service's time too; a time either side lacks says it may have.
 */
export function changedAfter(changedAt: string | null | undefined, appliedAt: string): boolean {
  const changed = Date.parse(changedAt ?? "");
  const applied = Date.parse(appliedAt);
  return !(Number.isFinite(changed) && Number.isFinite(applied) && changed <= applied);
}
