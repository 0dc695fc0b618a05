/* trace_html.c -- the HTML page of `tally eval --trace --html`. */
#include <config.h>
#include "machine/trace_html.h"

#include <string.h>

/* Text as HTML character data or attribute value. */
static void escaped(Buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		default:
			if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
				buf_printf(b, "&#xfffd;");
			else
				buf_putc(b, s[i]);
		}
	}
}

static void escaped_str(Buf *b, const char *s)
{
	escaped(b, s, strlen(s));
}

/* One cell of a row: a JSON integer or, for huge counts, a string. */
static void cell(Buf *b, json_t *v, bool boolean)
{
	if (boolean) {
		bool t = json_integer_value(v) != 0;
		buf_puts(b, t ? "<td class=\"t\">&#10003; 1</td>"
			      : "<td class=\"f\">0</td>");
		return;
	}
	buf_puts(b, "<td class=\"n\">");
	if (json_is_integer(v))
		buf_printf(b, "%lld", (long long)json_integer_value(v));
	else if (json_is_string(v))
		escaped_str(b, json_string_value(v));
	buf_puts(b, "</td>");
}

void trace_html_word(Buf *b, json_t *trace, const char *word, size_t n,
		     const bool *accept, size_t nformulas)
{
	bool all = true;
	for (size_t i = 0; i < nformulas; i++)
		all = all && accept[i];
	buf_printf(b, "<section class=\"word\">\n<h2 class=\"verdict %s\">",
		   all ? "accept" : "reject");
	buf_puts(b, all ? "accept" : "reject");
	if (nformulas > 1) {
		buf_puts(b, " (");
		for (size_t i = 0; i < nformulas; i++)
			buf_printf(b, "%s%s", i ? " " : "",
				   accept[i] ? "accept" : "reject");
		buf_putc(b, ')');
	}
	buf_puts(b, ": <span class=\"w\">");
	if (n)
		escaped(b, word, n);
	else
		buf_puts(b, "&epsilon; (the empty word)");
	buf_puts(b, "</span></h2>\n<table>\n<tr><th>position</th>");
	json_t *pos = json_object_get(trace, "positions");
	json_t *let = json_object_get(trace, "letters");
	size_t i;
	json_t *v;
	json_array_foreach(pos, i, v)
		buf_printf(b, "<th>%lld</th>", (long long)json_integer_value(v));
	buf_puts(b, "</tr>\n<tr><th>letter</th>");
	json_array_foreach(let, i, v) {
		buf_puts(b, "<td class=\"l\">");
		if (json_is_string(v))
			escaped_str(b, json_string_value(v));
		buf_puts(b, "</td>");
	}
	buf_puts(b, "</tr>\n");
	json_t *row, *inputs = json_object_get(trace, "inputs");
	json_int_t shown = 0; /* the inputs whose header row is out */
	json_array_foreach(json_object_get(trace, "rows"), i, row) {
		bool boolean = strcmp(json_string_value(json_object_get(row, "sort")),
				      "bool") == 0;
		/* several inputs: a header row before each one's rows */
		json_int_t in = json_integer_value(json_object_get(row, "input"));
		for (; json_array_size(inputs) > 1 && shown < in; shown++) {
			buf_printf(b, "<tr><th class=\"i\" colspan=\"%zu\">"
				      "input %lld: ", json_array_size(pos) + 1,
				   (long long)shown + 1);
			escaped_str(b, json_string_value(
					       json_array_get(inputs, (size_t)shown)));
			buf_puts(b, "</th></tr>\n");
		}
		buf_puts(b, "<tr><th>");
		escaped_str(b, json_string_value(json_object_get(row, "label")));
		buf_puts(b, "</th>");
		size_t j;
		json_array_foreach(json_object_get(row, "values"), j, v)
			cell(b, v, boolean);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</table>\n</section>\n");
}

static const char style[] =
	"body{font-family:sans-serif;margin:1em}"
	"table{border-collapse:collapse;margin:0 0 2em 0}"
	"th,td{border:1px solid #888;padding:.25em .5em;text-align:right;"
	"font-family:monospace}"
	"th{background:#eee;text-align:left}"
	"td.t{background:#2e9e4f;color:#fff;font-weight:bold}"
	"td.f{color:#999}"
	"td.l{background:#eef;font-weight:bold;text-align:center}"
	"h1.verdict,h2.verdict{padding:.2em .4em}"
	".accept{background:#c8f0c8}.reject{background:#f6c6c6}"
	"span.w{font-family:monospace}";

void trace_html_page(FILE *out, const Buf *sections, size_t nwords,
		     size_t nrejected)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		     "<meta charset=\"utf-8\">\n<title>tally eval trace</title>\n"
		     "<style>%s</style>\n</head>\n<body>\n", style);
	fprintf(out, "<h1 class=\"verdict %s\" id=\"verdict\">%s: %zu of %zu "
		     "word%s accepted</h1>\n",
		nrejected ? "reject" : "accept",
		nrejected ? "reject" : "accept", nwords - nrejected, nwords,
		nwords == 1 ? "" : "s");
	fputs("<p>Positions are 1-based; a word is accepted iff the formula "
	      "(the last row) holds at its last position.  True cells are "
	      "marked &#10003;.</p>\n", out);
	if (sections->len)
		fwrite(sections->data, 1, sections->len, out);
	fputs("</body>\n</html>\n", out);
}
