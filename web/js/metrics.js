// perflab web: the metric table perflabd serves (GET /api/v1/metric-defs,
// one row per metric of common/metric_defs.c: name, bench JSON path, unit,
// direction, whether a verdict can rest on it, label, printf format).
// Pages ask this module for labels, values and directions instead of
// keeping their own lists; app.js loads the table before a page renders.
import { api } from './api.js';

let defs = [];
let loading = null;

// Fetch the table once; on failure keep the last one and try again on the
// next page render (e.g. after the key dialog).
export function loadMetricDefs() {
	if (!loading) {
		loading = api('/api/v1/metric-defs')
			.then((r) => { defs = Array.isArray(r && r.metrics) ? r.metrics : []; return defs; })
			.catch(() => { loading = null; return defs; });
	}
	return loading;
}

export const metricDefs = () => defs;
export const metricDef = (name) => defs.find((m) => m.name === name) || null;
export const metricLabel = (name) => (metricDef(name) || {}).label || name || '';

// Position in the table (display order); unknown names last.
export function metricRank(name) {
	const i = defs.findIndex((m) => m.name === name);
	return i < 0 ? defs.length : i;
}

// A larger value is a regression. Names outside the table (series pushed
// through the API) follow docs/verdicts.md: latencies and *_ns are costs.
export function higherIsWorse(name) {
	const m = metricDef(name);
	if (m) return m.direction === 'lower_is_better';
	return /latency/.test(name) || /_ns$/.test(name);
}

// The value of @m at its JSON path in a run object of the API, or null.
export function metricOf(run, m) {
	let v = run;
	for (const k of m.path.split('.')) v = v && typeof v === 'object' ? v[k] : undefined;
	return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

// "234,512 IOPS", "4264.39 ns/IO": the table's format and label.
export function fmtMetric(name, v) {
	if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
	const m = metricDef(name);
	if (!m) return String(v) + ' ' + name;
	const d = Number((/%\.(\d+)f/.exec(m.format) || [])[1] || 0);
	return (d ? v.toFixed(d) : Math.round(v).toLocaleString('en-US')) + ' ' + m.label;
}
