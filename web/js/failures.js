// perflab web: the failure reason table perflabd serves (GET
// /api/v1/failure-reasons, one row per reason of common/failure_reasons.c:
// name, meaning, advice, retryable, who reports it, what a bisection does
// with a step that fails with it). Pages explain a failure from here
// instead of keeping their own list; app.js loads it before a page renders.
import { api } from './api.js';

let reasons = [];
let loading = null;

// Fetch the table once; on failure keep the last one and try again on the
// next page render.
export function loadFailureReasons() {
	if (!loading) {
		loading = api('/api/v1/failure-reasons')
			.then((r) => { reasons = Array.isArray(r && r.reasons) ? r.reasons : []; return reasons; })
			.catch(() => { loading = null; return reasons; });
	}
	return loading;
}

export const failureReasons = () => reasons;
export const failureReason = (name) => reasons.find((r) => r.name === name) || null;

// "The patch does not apply to the base tree: rebase the patch and submit
// it again." for a reason of the table, '' for any other text.
export function failureText(name) {
	const r = failureReason(name);
	if (!r) return '';
	return r.meaning.charAt(0).toUpperCase() + r.meaning.slice(1) + ': ' + r.advice + '.';
}
