import type { ApiErrorDetails } from "../errors/api-error";

/**
 * How an error names a page that was answered (200, on the first try) but cannot be paged
 * on from: the operation, and the page's path with its query, as it was requested.
 */
export function answeredPage(
  target: { readonly operation: string; readonly method: string },
  path: string,
  query: Readonly<Record<string, string>>,
): ApiErrorDetails {
  return {
    operation: target.operation,
    method: target.method,
    path: `${path}?${new URLSearchParams(query)}`,
    status: 200,
    attempts: 1,
  };
}
