/*
 * Evidence that does not exist is not always a 404: the error-group list documents no 404, and
 * a service may answer `[]` for a check it does not know. The one rule every reader of
 * evidence calls (the stack's outputs, plan --evidence, the reports).
 */

/** Why a heartbeat read suggests the heartbeat does not exist, or undefined. */
export function heartbeatAbsence(read: { noResult?: true | undefined }): string | undefined {
  return read.noResult
    ? "the service answered no result for it ([]), as it does for a heartbeat it does not know"
    : undefined;
}

/** Why an error-group listing suggests the check does not exist, or undefined. */
export function checkAbsence(read: { count: number }): string | undefined {
  return read.count === 0
    ? "the service lists no error group for it at all ([]), as it does for a check it does not know (or one that never recorded an error)"
    : undefined;
}
