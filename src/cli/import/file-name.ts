/*
 * The file an imported incident is written to: its name as a slug (`Elevated error rate on the
 * API` gives `elevated-error-rate-on-the-api.yaml`), readable in a listing and the same on
 * every run; a name taken already gets a short piece of the incident's id after it.
 */

/** Longest slug before `.yaml`, cut at a word. */
const SLUG_MAX = 60;

/** Names some systems keep for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * Letters and digits of any script, lowercased, accents off Latin letters, each run of anything
 * else one `-`; `incident` when nothing is left.
 */
export function slugOf(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  let slug = words;
  if ([...slug].length > SLUG_MAX) {
    const cut = [...slug].slice(0, SLUG_MAX).join("");
    const atWord = cut.lastIndexOf("-");
    slug = atWord > SLUG_MAX / 2 ? cut.slice(0, atWord) : cut;
  }
  if (slug === "") return "incident";
  return RESERVED.test(slug) ? `${slug}-incident` : slug;
}

/** The letters and digits of an id, lowercased: what of it may stand in a file name. */
function idPart(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/**
 * A file name for the incident not in `taken` (names compared without case, as some file
 * systems do): its slug, else the slug and the first 8 letters or digits of its id, else more
 * of the id, else a number. `taken` is added to.
 */
export function uniqueFileName(name: string, id: string, taken: Set<string>): string {
  const slug = slugOf(name);
  const part = idPart(id);
  const candidates = [
    slug,
    ...(part === "" ? [] : [`${slug}-${part.slice(0, 8)}`, `${slug}-${part}`]),
  ];
  for (let number = 2; ; number++) {
    const base = candidates.shift() ?? `${slug}-${part || "incident"}-${number}`;
    const file = `${base}.yaml`;
    if (!taken.has(file.toLowerCase())) {
      taken.add(file.toLowerCase());
      return file;
    }
  }
}
