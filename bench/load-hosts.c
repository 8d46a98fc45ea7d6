// SPDX-License-Identifier: MIT
/*
 * load-hosts: N simulated runner hosts against perflabd, for
 * bench/load-api.sh. Each host is a thread with one keep-alive libcurl
 * handle: claim (long-poll 1 s), two heartbeats, upload a small result,
 * until the deadline. Uploads that get no answer are retried with the
 * same lease (as perflab-runner does). Prints call counts, latency
 * percentiles and errors; writes "job lease status" per upload to a file
 * for the caller to check against the database.
 *
 *   load-hosts BASE_URL KEYFILE SECONDS ACKFILE
 *   KEYFILE: one "HOSTNAME KEY" line per host
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#define MAX_HOSTS 256
#define MAX_LAT (1 << 20)

enum { C_CLAIM, C_HB, C_RESULT, C_N };
static const char *const call_name[C_N] = { "claim", "heartbeat", "result" };

struct lat {
	double *v;
	size_t n;
};

static struct {
	pthread_mutex_t lock;
	struct lat lat[C_N];
	long calls[C_N], errors, http5xx, claims204, up201, up200, up409;
	FILE *acks;
	const char *base;
	double deadline;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct host {
	char name[64], key[128];
	pthread_t t;
};

struct buf {
	char *p;
	size_t n;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static size_t on_data(char *d, size_t sz, size_t n, void *arg)
{
	struct buf *b = arg;
	char *p = realloc(b->p, b->n + sz * n + 1);

	if (!p)
		return 0;
	memcpy(p + b->n, d, sz * n);
	b->p = p;
	b->n += sz * n;
	b->p[b->n] = '\0';
	return sz * n;
}

static void record(int call, double secs)
{
	struct lat *l = &g.lat[call];

	pthread_mutex_lock(&g.lock);
	g.calls[call]++;
	if (l->n < MAX_LAT)
		l->v[l->n++] = secs;
	pthread_mutex_unlock(&g.lock);
}

/* POST @body to @path; HTTP status (0: no answer); answer in @ans. */
static long post(CURL *c, struct curl_slist *h, int call, const char *path,
		 const char *body, struct buf *ans)
{
	char url[512];
	long code = 0;
	double t0 = now();

	snprintf(url, sizeof(url), "%s%s", g.base, path);
	ans->n = 0;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, ans);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	record(call, now() - t0);
	if (code == 0 || code >= 500) {
		pthread_mutex_lock(&g.lock);
		if (code)
			g.http5xx++;
		else
			g.errors++;
		pthread_mutex_unlock(&g.lock);
	}
	return code;
}

/* The string value of "key":"..." or the number of "key":N in @s. */
static int field(const char *s, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p;
	size_t i = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = s ? strstr(s, pat) : NULL;
	if (!p)
		return -1;
	p += strlen(pat);
	if (*p == '"')
		p++;
	while (*p && *p != '"' && *p != ',' && *p != '}' && i + 1 < n)
		out[i++] = *p++;
	out[i] = '\0';
	return 0;
}

static void result_body(char *b, size_t n, const char *lease, long job)
{
	size_t o;
	int t;

	o = snprintf(b, n, "{\"lease\":\"%s\",\"bench\":{\"version\":1,\"kernel\":\"6.1.0\","
		     "\"samples\":[", lease);
	for (t = 1; t <= 10; t++)
		o += snprintf(b + o, n - o, "%s{\"t\":%d,\"iops\":%ld,\"ios_per_submit\":32,"
			      "\"ios_per_reap\":31,\"inflight\":75}", t > 1 ? "," : "", t,
			      3500000 + job * 10 + t);
	o += snprintf(b + o, n - o, "],\"summary\":{\"warmup\":1,\"seconds\":9,\"mean\":%ld,"
		      "\"median\":%ld,\"stddev\":100},\"profile\":{\"event\":\"cpu-clock\","
		      "\"total\":60,\"lost\":0,\"symbols\":[", 3500000 + job * 10,
		      3500000 + job * 10);
	for (t = 0; t < 10; t++)
		o += snprintf(b + o, n - o, "%s{\"dso\":\"[kernel.kallsyms]\",\"sym\":\"sym%d\","
			      "\"samples\":%d}", t ? "," : "", t, t + 1);
	snprintf(b + o, n - o, "],\"stacks\":[{\"stack\":\"a;b;c\",\"samples\":5}]}},"
		 "\"timings\":{\"build_s\":0,\"boot_s\":0,\"run_s\":10}}");
}

static void *host_main(void *arg)
{
	struct host *h = arg;
	struct curl_slist *hdr = NULL;
	struct buf ans = { 0 };
	char auth[200], body[8192], path[128], lease[80], job[32];
	CURL *c = curl_easy_init();
	long code;
	int i;

	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", h->key);
	hdr = curl_slist_append(hdr, auth);
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	while (now() < g.deadline) {
		snprintf(body, sizeof(body), "{\"host\":\"%s\",\"wait\":1}", h->name);
		code = post(c, hdr, C_CLAIM, "/api/v1/jobs/claim", body, &ans);
		if (code == 204) {
			__atomic_fetch_add(&g.claims204, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (code != 200 || field(ans.p, "lease", lease, sizeof(lease)) ||
		    field(ans.p, "job_id", job, sizeof(job))) {
			if (code != 200 && code < 500 && code)
				__atomic_fetch_add(&g.errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "/api/v1/jobs/%s/heartbeat", job);
			snprintf(body, sizeof(body), "{\"lease\":\"%s\",\"phase\":\"%s\"}",
				 lease, i ? "run" : "build");
			code = post(c, hdr, C_HB, path, body, &ans);
			if (code != 200 && code < 500 && code)
				__atomic_fetch_add(&g.errors, 1, __ATOMIC_RELAXED);
		}
		snprintf(path, sizeof(path), "/api/v1/jobs/%s/result", job);
		result_body(body, sizeof(body), lease, atol(job));
		for (i = 0; i < 20; i++) {	/* retry unanswered uploads */
			code = post(c, hdr, C_RESULT, path, body, &ans);
			if (code && code < 500)
				break;
		}
		pthread_mutex_lock(&g.lock);
		if (code == 201)
			g.up201++;
		else if (code == 200)
			g.up200++;
		else if (code == 409)
			g.up409++;
		else
			g.errors++;
		fprintf(g.acks, "%s %s %ld\n", job, lease, code);
		pthread_mutex_unlock(&g.lock);
	}
	curl_slist_free_all(hdr);
	curl_easy_cleanup(c);
	free(ans.p);
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(struct lat *l, double p)
{
	if (!l->n)
		return 0;
	return l->v[(size_t)(p * (l->n - 1))];
}

int main(int argc, char **argv)
{
	static struct host hosts[MAX_HOSTS];
	int n = 0, i;
	double secs, t0;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: load-hosts BASE_URL KEYFILE SECONDS ACKFILE\n");
		return 2;
	}
	g.base = argv[1];
	secs = atof(argv[3]);
	f = fopen(argv[2], "r");
	g.acks = fopen(argv[4], "w");
	if (!f || !g.acks) {
		perror("load-hosts");
		return 1;
	}
	while (n < MAX_HOSTS && fscanf(f, "%63s %127s", hosts[n].name, hosts[n].key) == 2)
		n++;
	fclose(f);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	for (i = 0; i < C_N; i++)
		g.lat[i].v = malloc(MAX_LAT * sizeof(double));
	t0 = now();
	g.deadline = t0 + secs;
	for (i = 0; i < n; i++)
		pthread_create(&hosts[i].t, NULL, host_main, &hosts[i]);
	for (i = 0; i < n; i++)
		pthread_join(hosts[i].t, NULL);
	fclose(g.acks);
	printf("load-hosts: %d hosts, %.1f s: %ld claims (%ld empty), %ld heartbeats, "
	       "%ld uploads (%ld stored, %ld duplicate, %ld refused), %ld errors, %ld 5xx\n",
	       n, now() - t0, g.calls[C_CLAIM], g.claims204, g.calls[C_HB],
	       g.up201 + g.up200 + g.up409, g.up201, g.up200, g.up409, g.errors, g.http5xx);
	for (i = 0; i < C_N; i++) {
		qsort(g.lat[i].v, g.lat[i].n, sizeof(double), cmp);
		printf("  %-10s %7.1f/s  p50 %7.2f ms  p99 %7.2f ms%s\n", call_name[i],
		       g.lat[i].n / (now() - t0), pct(&g.lat[i], 0.5) * 1e3,
		       pct(&g.lat[i], 0.99) * 1e3,
		       i == C_CLAIM ? "  (long-poll up to 1 s when idle)" : "");
		free(g.lat[i].v);
	}
	curl_global_cleanup();
	return g.errors || g.http5xx ? 1 : 0;
}
