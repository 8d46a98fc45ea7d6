// SPDX-License-Identifier: MIT
/*
 * Description: LAVA job definitions come out of the template through the
 * emitter: dist/lava/qemu-icount.json renders with values that would
 * break pasted YAML (quotes, brackets, "- deploy:", "#", "${name}", LAVA's
 * own "{kernel}", YAML 1.1 booleans such as "yes") and PyYAML, LAVA's
 * reader, reads the result back as the same tree, every value the very
 * string it was; the structure (three actions, the notify block) is the
 * template's. Refused: an unknown variable, a non-ASCII or control
 * character in a value, a non-string value inside a string, a variable in
 * a key, a malformed ${, a template that is not a job definition.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/lab/lava_template.h"
#include "unit/check.h"

static const char hostile[] =
	"x\" ] } - deploy: {to: evil} # ${kernel_url} {kernel} 'q' \\ %s";

static json_t *vars(void)
{
	return json_pack("{s:s,s:[s],s:{s:s,s:s},s:i,s:i,s:i,s:s,s:s,s:s,s:s,"
			 "s:s,s:s,s:{s:s},s:s,s:s,s:{s:{s:s}}}",
		"job_name", hostile, "tags", "yes", "metadata", "perflab.title",
		hostile, "perflab.variant", "yes", "job_minutes", 20,
		"boot_minutes", 5, "test_minutes", 7, "insn_plugin",
		"/usr/lib/perflab/perflab-insn.so", "cmdline", "perflab_canary=16",
		"kernel_url", "http://lab:8080/api/v1/lava/files/1/bzImage",
		"kernel_sha256", "0123", "initrd_url", "http://x/i", "initrd_sha256",
		"4567", "file_headers", "X-Perflab-Token", "plj_t",
		"bench_command", "/bin/perflab-lava-bench nullb -d 128",
		"target", "nullb", "notify", "criteria", "status", "finished");
}

/* PyYAML's reading of @text, as JSON (NULL when python3-yaml is absent). */
static json_t *pyyaml(const char *text)
{
	char path[] = "/tmp/lava-template-XXXXXX", cmd[512];
	int fd = mkstemp(path);
	json_t *j = NULL;
	FILE *p;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c 'import sys, json, yaml;"
		 " print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' %s"
		 " 2>/dev/null", path);
	p = popen(cmd, "r");
	if (p) {
		j = json_loadf(p, 0, NULL);
		pclose(p);
	}
	unlink(path);
	return j;
}

static void render_repo_template(void)
{
	size_t len;
	char err[256], *text = slurp("dist/lava/qemu-icount.json", &len), *def;
	json_t *t, *v, *d, *y, *names;
	const char *x;

	CHECK(text, "dist/lava/qemu-icount.json (run from the top directory)");
	if (!text)
		return;
	t = lava_template_parse(text, err, sizeof(err));
	CHECK(t, "%s", err);
	names = lava_template_vars(t);
	CHECK(json_array_size(names) == 15, "%zu variables",
	      json_array_size(names));
	v = vars();
	def = lava_template_render(t, v, err, sizeof(err));
	CHECK(def, "%s", err);
	if (!def)
		goto out;
	d = json_loads(def, 0, NULL);
	CHECK(d, "the definition is JSON");
	x = json_string_value(json_object_get(json_object_get(d, "metadata"),
					      "perflab.title"));
	CHECK(x && !strcmp(x, hostile), "title kept verbatim: %s", x);
	x = json_string_value(json_object_get(d, "job_name"));
	CHECK(x && !strcmp(x, hostile), "job name kept verbatim");
	CHECK(json_array_size(json_object_get(d, "actions")) == 3);
	CHECK(json_integer_value(json_object_get(json_object_get(json_object_get(
		d, "timeouts"), "job"), "minutes")) == 20, "integers stay integers");
	CHECK(strstr(def, "perflab_canary=16\\\"") != NULL, "cmdline inside -append \"...\"");
	CHECK(strstr(def, "-plugin /usr/lib/perflab/perflab-insn.so,console=on"));
	CHECK(!strchr(def, '\t'));
	y = pyyaml(def);
	if (y) {
		CHECK(json_equal(y, d), "PyYAML reads the same tree");
		x = json_string_value(json_array_get(json_object_get(y, "tags"), 0));
		CHECK(x && !strcmp(x, "yes"), "\"yes\" is a string to YAML");
	} else {
		printf("note: /usr/bin/python3 with yaml absent: PyYAML check skipped\n");
	}
	json_decref(y);
	json_decref(d);
	free(def);
out:
	json_decref(v);
	json_decref(names);
	json_decref(t);
	free(text);
}

static void refusals(void)
{
	char err[256], *def;
	json_t *t = lava_template_parse("{\"actions\": [], \"a\": \"${one}-${two}\","
					" \"b\": \"${obj}\"}", err, sizeof(err));
	json_t *v;

	CHECK(t, "%s", err);
	v = json_pack("{s:s,s:i,s:{}}", "one", "1", "two", 2, "obj");
	def = lava_template_render(t, v, err, sizeof(err));
	CHECK(def && strstr(def, "\"1-2\""), "%s", def ? def : err);
	free(def);
	json_object_set_new(v, "one", json_string("caf\xc3\xa9"));
	CHECK(!lava_template_render(t, v, err, sizeof(err)) &&
	      strstr(err, "printable ASCII"), "non-ASCII value: %s", err);
	json_object_set_new(v, "one", json_string("a\nb"));
	CHECK(!lava_template_render(t, v, err, sizeof(err)), "newline in a value");
	json_object_set_new(v, "one", json_string("1"));
	json_object_del(v, "two");
	CHECK(!lava_template_render(t, v, err, sizeof(err)) && strstr(err, "unknown"),
	      "unknown variable: %s", err);
	json_object_set_new(v, "two", json_array());
	CHECK(!lava_template_render(t, v, err, sizeof(err)), "a list inside a string");
	json_decref(v);
	json_decref(t);
	CHECK(!lava_template_parse("{\"actions\": [], \"${k}\": 1}", err, sizeof(err)),
	      "a variable in a key");
	CHECK(!lava_template_parse("{\"actions\": [], \"a\": \"${bad\"}", err, sizeof(err)),
	      "a malformed reference");
	CHECK(!lava_template_parse("{\"actions\": [], \"a\": \"\xc3\xa9\"}", err, sizeof(err)),
	      "a non-ASCII template");
	CHECK(!lava_template_parse("[1]", err, sizeof(err)), "not a job");
	CHECK(!lava_template_parse("{\"actions\": [], \"a\": 1, \"a\": 2}", err,
				   sizeof(err)), "duplicate keys");
}

int main(void)
{
	render_repo_template();
	refusals();
	DONE();
}
