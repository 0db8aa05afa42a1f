// Draws every table and chart of the report from its JSON data block, then marks the
// page ready (`<html data-ready>`), which the browser tests and screenshots wait for.
(() => {
  const ns = window.incidentSyncReport;
  const data = JSON.parse(document.getElementById("report-data").textContent);
  for (const root of document.querySelectorAll("[data-table]")) {
    ns.table(root, data.tables[root.dataset.table]);
  }
  for (const root of document.querySelectorAll("[data-chart]")) {
    ns.chart(root, data.charts[root.dataset.chart]);
  }
  document.documentElement.dataset.ready = "true";
})();
