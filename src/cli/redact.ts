/**
 * Removes every occurrence of each secret (the API key) from text bound for a person or a
 * file. Lower layers never put the key in an error, but a message may quote a request.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
    .reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}
