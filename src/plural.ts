/** `1 file`, `2 files`; `pluralForm` for the rest (`1 event has`, `2 events have`). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
