// Runs before uPlot. uPlot formats numbers with `navigator.language` as it loads, and Intl
// throws on a POSIX locale such as "en-US@posix", which headless Chromium reports under
// LANG=C.UTF-8 (common in CI containers): uPlot would not load and every chart would stay
// blank. Such a locale becomes its language tag ("en-US"), or "en-US" when even that is not one.
(() => {
  const usable = (tag) => {
    try {
      new Intl.NumberFormat(tag);
      return tag !== "";
    } catch {
      return false;
    }
  };
  if (usable(navigator.language)) return;
  const tag = String(navigator.language).split(/[@.]/)[0].replace(/_/g, "-");
  Object.defineProperty(navigator, "language", {
    value: usable(tag) ? tag : "en-US",
    configurable: true,
  });
})();
