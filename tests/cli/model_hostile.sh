# model_hostile.sh -- the model reader of tally simulate (model_read.c)
# against hostile files: each is refused with exit 2 and a message that
# names the field, never read out of bounds, wrapped or guessed at; what
# tally compile writes is read back; words run in bounded memory and
# under --timeout and --max-memory.  The hostile models are edits of one
# hand-written model (majority), so each case changes one thing.
. "$top_srcdir/tests/lib.sh"

cat > base.json << 'EOF'
{"format": "tally-transformer",
 "format_version": 1,
 "precision": {"p": 16, "s": 8, "rounding": "floor, saturating"},
 "positional": "nope",
 "ffn": "table",
 "formula": "#[Q_b] < #[Q_a]",
 "alphabet": ["a", "b"],
 "d_model": 5,
 "n_layers": 1,
 "components": [
  {"kind": "bos", "layer": 0},
  {"kind": "bool", "layer": 0, "formula": "Q_a"},
  {"kind": "bool", "layer": 0, "formula": "Q_b"},
  {"kind": "head", "layer": 1, "formula": "#[Q_b] < #[Q_a]",
   "counts": [{"coef": "-1", "formula": "Q_a"}, {"coef": "1", "formula": "Q_b"}],
   "constant": "0"},
  {"kind": "bool", "layer": 1, "formula": "#[Q_b] < #[Q_a]"}],
 "embedding": [
  ["1", "0", "0", "0", "0"],
  ["0", "1", "0", "0", "0"],
  ["0", "0", "1", "0", "0"]],
 "layers": [{
  "heads": [{
   "query": {"rows": 0, "entries": []},
   "key": {"rows": 0, "entries": []},
   "value": {"weights": [[1, "1"], [2, "-1"], [0, "-1"]], "bias": "0"},
   "alibi_slope": "0",
   "out": 3}],
  "ffn": {"gates": [
   {"op": "ge0", "in": [3], "out": 4}]}}],
 "output": {"weights": [[4, "1"]], "bias": "0"}}
EOF
# The base is a model, and majority's.
try 0 "$TALLY" simulate base.json --check-against-formula --max-length 6

# edit NAME SED-ARGS...: NAME.json, the base edited (the edit must apply).
edit() {
	name=$1
	shift
	sed "$@" base.json > "$name.json"
	! cmp -s base.json "$name.json" || fail "$name: the edit changed nothing"
}

# hostile NAME FIELD SED-ARGS...: the edited base is refused with exit 2
# and a message naming FIELD (its path, and what is wrong with it).
hostile() {
	name=$1 field=$2
	shift 2
	edit "$name" "$@"
	try 2 "$TALLY" simulate "$name.json" --trace -w ab
	err_has "$name.json: $field"
}

# ---- the cases found from outside (issue 18) --------------------------------
# A negative layer was read out of bounds (SIGSEGV in the trace), a layer
# beyond n_layers read uninitialised memory.
hostile neg-layer 'components[3].layer: expected an integer in 1..1, found the number -1' \
	-e 's/"kind": "head", "layer": 1/"kind": "head", "layer": -1/'
hostile big-layer 'components[3].layer: expected an integer in 1..1, found the number 7' \
	-e 's/"kind": "head", "layer": 1/"kind": "head", "layer": 7/'
# n_layers was never compared with the layers.
hostile n-layers 'n_layers: 5, but "layers" has 1 entries' \
	-e 's/"n_layers": 1/"n_layers": 5/'
# num_buckets of 2^32 + 2 wrapped to 2.
T5='"t5": {"bidirectional": false, "num_buckets": 2, "max_distance": 2, "bias": ["0", "0"]}'
edit t5 -e 's/"positional": "nope"/"positional": "t5"/' \
	-e "s/\"out\": 3}/\"out\": 3, $T5}/"
try 0 "$TALLY" simulate t5.json --check-against-formula --max-length 6
hostile t5-wrap 'layers[0].heads[0].t5.num_buckets: expected an integer in 2..4096, found the number 4294967298' \
	-e 's/"positional": "nope"/"positional": "t5"/' \
	-e "s/\"out\": 3}/\"out\": 3, $T5}/" -e 's/"num_buckets": 2,/"num_buckets": 4294967298,/'
# An "and" gate with no inputs was silently true.
hostile and-empty 'layers[0].ffn.gates[1].in: an and gate needs at least one input' \
	-e 's/"out": 4}\]/"out": 4}, {"op": "and", "in": [], "out": 4}]/'
# Weights have one spelling, the writer's "m" or "m/D" in lowest terms;
# "+1", " 1" and JSON numbers were read, "1/2^1" was refused unnamed.
for w in '"+1"' '" 1"' '"1 "' 1 '"01"' '"2/2"' '"1.0"' '"1e0"' '"1/2^0"' '""'; do
	hostile weight "embedding[1][1]: expected a weight: a dyadic rational as a string" \
		-e "s|\\[\"0\", \"1\", \"0\", \"0\", \"0\"\\]|[\"0\", $w, \"0\", \"0\", \"0\"]|"
done
for w in '"1/2^1"' '"2/4"' '"-0"' '"1/3"' '"1/0"' '"-1/-2"' '"0/2"'; do
	hostile weight "embedding[0][1]: expected a weight: a dyadic rational as a string" \
		-e "s|\\[\"1\", \"0\", \"0\", \"0\", \"0\"\\]|[\"1\", $w, \"0\", \"0\", \"0\"]|"
done
hostile weight 'embedding[0][1]: the weight 1/512 is not in F_{16,8}' \
	-e 's|\["1", "0", "0", "0", "0"\]|["1", "1/512", "0", "0", "0"]|'
hostile weight 'embedding[0][1]: the weight 128 is not in F_{16,8}' \
	-e 's|\["1", "0", "0", "0", "0"\]|["1", "128", "0", "0", "0"]|'
# ... and the writer's spelling is read (the output bias -1/256 leaves
# every verdict as it was).
edit weight -e 's|"output": {"weights": \[\[4, "1"\]\], "bias": "0"}|"output": {"weights": [[4, "1"]], "bias": "-1/256"}|'
try 0 "$TALLY" simulate weight.json --check-against-formula --max-length 6
# A repeated letter was "a letter outside the model's alphabet".
hostile dup-letter 'alphabet[1]: the letter "a" again (it is alphabet[0])' \
	-e 's/"alphabet": \["a", "b"\]/"alphabet": ["a", "a"]/'
# A standard RoPE frequency of huge k cost 0.6 s a position: k < d/2.
ROPE='"rope": [{"base": 10000, "k": 0, "d": 2}]'
edit rope -e 's/"positional": "nope"/"positional": "rope"/' \
	-e 's/{"rows": 0, "entries"/{"rows": 2, "entries"/g' \
	-e "s/\"out\": 3}/\"out\": 3, $ROPE}/"
try 0 "$TALLY" simulate rope.json --check-against-formula --max-length 6
hostile rope-k 'layers[0].heads[0].rope[0].k: expected an integer in 0..0, found the number 1048576' \
	-e 's/"positional": "nope"/"positional": "rope"/' \
	-e 's/{"rows": 0, "entries"/{"rows": 2, "entries"/g' \
	-e "s/\"out\": 3}/\"out\": 3, $ROPE}/" -e 's/"k": 0, "d": 2/"k": 1048576, "d": 1/'

# ---- every other rule ------------------------------------------------------
hostile unknown 'layers[0].heads[0].ropes: unknown field' \
	-e 's/"out": 3}/"out": 3, "ropes": []}/'
hostile missing 'layers[0].heads[0].alibi_slope: missing' \
	-e '/"alibi_slope": "0",/d'
hostile not-pe 'layers[0].heads[0].t5: a field of the "t5" encoding, but the model'"'"'s "positional" is "nope"' \
	-e "s/\"out\": 3}/\"out\": 3, $T5}/"
hostile pe-name 'positional: expected "nope", "alibi", "sinusoidal", "rope", "t5" or "urpe"' \
	-e 's/"positional": "nope"/"positional": "NoPE"/'
hostile slope 'layers[0].heads[0].alibi_slope: negative' \
	-e 's/"positional": "nope"/"positional": "alibi"/' \
	-e 's/"alibi_slope": "0"/"alibi_slope": "-1"/'
hostile format 'format_version: expected an integer in 1..1, found the number 2' \
	-e 's/"format_version": 1/"format_version": 2/'
hostile precision 'precision.s: expected an integer in 0..14, found the number 15' \
	-e 's/"s": 8/"s": 15/'
hostile rounding 'precision.rounding: expected "floor, saturating"' \
	-e 's/"floor, saturating"/"nearest"/'
hostile d-model 'components: expected an array of 6 entries, found 5' \
	-e 's/"d_model": 5/"d_model": 6/'
hostile kind 'components[2].kind: expected "bos", "bool", "head" or "hidden"' \
	-e 's/{"kind": "bool", "layer": 0, "formula": "Q_b"}/{"kind": "boolean", "layer": 0, "formula": "Q_b"}/'
hostile bos-layer 'components[0].layer: expected an integer in 0..0, found the number 1' \
	-e 's/{"kind": "bos", "layer": 0}/{"kind": "bos", "layer": 1}/'
hostile counts 'components[3].counts[1].coef: missing' \
	-e 's/{"coef": "1", "formula": "Q_b"}/{"formula": "Q_b"}/'
hostile index 'layers[0].heads[0].value.weights[1][0]: expected an index into the components (0..4), found the number 5' \
	-e 's/\[2, "-1"\]/[5, "-1"]/'
hostile index 'layers[0].heads[0].out: expected an index into the components (0..4), found the number -1' \
	-e 's/"out": 3}/"out": -1}/'
hostile repeat 'layers[0].heads[0].value.weights[2]: repeats the column of entry [0]' \
	-e 's/\[0, "-1"\]/[1, "-1"]/'
hostile rows 'layers[0].heads[0].query.entries[0][0]: an index into the rows, which is empty' \
	-e 's/"query": {"rows": 0, "entries": \[\]}/"query": {"rows": 0, "entries": [[0, 1, "1"]]}/'
hostile ffn 'layers[0].ffn.blocks: the model'"'"'s "ffn" is "table"' \
	-e 's/"ffn": {"gates": \[/"ffn": {"blocks": [], "gates": [/'
hostile gate-bias 'layers[0].ffn.gates[1].bias: only a ge0 gate has a bias' \
	-e 's/"out": 4}\]/"out": 4}, {"op": "not", "in": [4], "out": 4, "bias": "1"}]/'
hostile not-arity 'layers[0].ffn.gates[0].in: a ge0 gate takes one input, not 2' \
	-e 's/"in": \[3\]/"in": [3, 1]/'
# References between components and layers: a component is written in
# its own layer, a head component by its one head.
hostile gate-layer 'layers[0].ffn.gates[0].out: writes components[1] in layer 1, but its "layer" is 0' \
	-e 's/"in": \[3\], "out": 4/"in": [3], "out": 1/'
hostile head-comp 'components[3]: a head component of layer 1 that nothing in layer 1 writes' \
	-e 's/"out": 3}/"out": 4}/'
hostile bos-write 'layers[0].ffn.gates[0].out: writes components[0], the BOS component' \
	-e 's/"in": \[3\], "out": 4/"in": [3], "out": 0/'
hostile embed-layer 'embedding[1][4]: writes components[4] in layer 0, but its "layer" is 1' \
	-e 's|\["0", "1", "0", "0", "0"\]|["0", "1", "0", "0", "1"]|'
# Labels must parse and keep to the alphabet.
hostile label 'components[1].formula: "((" is not a TL formula' \
	-e 's/"formula": "Q_a"}/"formula": "(("}/'
hostile letter "formula: the letter 'c' is not in the model's alphabet" \
	-e 's/^ "formula": "#\[Q_b\] < #\[Q_a\]",/ "formula": "#[Q_c] < #[Q_a]",/'
hostile letter "components[2].formula: the letter 'y' is not in the model's alphabet" \
	-e 's/"formula": "Q_b"}/"formula": "Q_y"}/'
hostile letter "components[3].counts[0].formula: the letter 'z' is not in the model's alphabet" \
	-e 's/{"coef": "-1", "formula": "Q_a"}/{"coef": "-1", "formula": "Q_z"}/'
# JSON that is not a model.
edit dup-key -e 's/"d_model": 5,/"d_model": 5, "d_model": 6,/'
try 2 "$TALLY" simulate dup-key.json -w ab
err_has 'duplicate object key'
printf '[1, 2]\n' > array.json
try 2 "$TALLY" simulate array.json -w ab
err_has 'array.json: expected a model (a JSON object), found an array'
{ cat base.json; echo '{}'; } > trailing.json
try 2 "$TALLY" simulate -w ab < trailing.json
err_has 'end of file expected near'
printf '{}\n' > empty.json
try 2 "$TALLY" simulate empty.json -w ab
err_has 'empty.json: format: missing'

# Letters are the model's strings as they are: "ab" is one letter and ","
# another (the alphabet was split like an --alphabet value).
edit letters -e 's/"alphabet": \["a", "b"\]/"alphabet": ["ab", ","]/' \
	-e "s/Q_a/'ab'/g" -e "s/Q_b/','/g"
try 1 "$TALLY" simulate letters.json -w "ab , ab" -w ""
out_is "$(printf 'ab , ab\taccept\n\treject')"

# ---- what tally compile writes reads back ---------------------------------
# Every formula and program of the corpus that compiles (table and relu),
# and the positional encodings on formulas with Y and MOD: each model
# reads (labels included) and agrees with its formula on short words.
readback() { # compile options...: compiles, or is skipped when refused
	if "$TALLY" compile "$@" > rb.json 2> /dev/null; then
		try 0 "$TALLY" simulate rb.json --check-against-formula \
			--max-length 2
		models=$((models + 1))
	fi
}
models=0
cat "$top_srcdir"/corpora/families/*/*.tl > formulas.txt
cut -f1,2 "$top_srcdir/corpora/equiv/pairs.tsv" | tr '\t' '\n' >> formulas.txt
while IFS= read -r f; do
	test -n "$f" || continue
	readback -f "$f"
	readback -f "$f" --ffn=relu
done < formulas.txt
for p in "$top_srcdir"/corpora/families/*/*.crasp \
	"$top_srcdir"/corpora/programs/*.crasp "$top_srcdir"/corpora/programs/*.cr; do
	readback -P "$p"
	readback -P "$p" --ffn=relu
done
for ffn in table relu; do
	for pe in alibi t5 urpe; do
		readback -f factor_bb --alphabet=ab --pe=$pe --ffn=$ffn
		readback -f "#[Y Y Q_a] < #[Y Q_b]" --pe=$pe --ffn=$ffn
	done
	for pe in sinusoidal rope; do
		readback -f "#[Q_a & MOD(3, 1)] < #[Q_b | MOD(2, 0)]" --pe=$pe --ffn=$ffn
		readback -f "MOD(4, 2) & #[Q_a] < #[Q_b]" --pe=$pe --ffn=$ffn
		readback -f "MOD(5, 0) | Q_b" --alphabet=ab --pe=$pe --ffn=$ffn
	done
done
echo "$models models compiled and read back"
test "$models" -ge 200 || fail "only $models models compiled and read back"

# A head with query and key rows but no entries has logits q.k = 0 plus
# its position terms: the general path must give what the content-free
# one does, so the models still agree with their formulas (the general
# path dropped the T5 bias: factor_bb accepted b).
for pe in t5 urpe alibi; do
	"$TALLY" compile -f factor_bb --alphabet=ab --pe=$pe |
		sed 's/"query":{"rows":0,"entries":\[\]},"key":{"rows":0,"entries":\[\]}/"query":{"rows":1,"entries":[]},"key":{"rows":1,"entries":[]}/g' > rows1.json
	grep -q '"rows":1' rows1.json || fail "$pe: no head got a row"
	try 0 "$TALLY" simulate rows1.json --check-against-formula --max-length 8
done

# The trace of a model whose labels name components (c7: compile writes
# subformulas of more than 64 nodes so) shows the formula's values, equal
# to the model's under kneedeep (they were "unknown name" and zeros).
awk 'BEGIN { print "X0 := Q_a"
	for (i = 1; i < 60; i++)
		if (i % 2) printf "X%d := #X%d\n", i, i - 1
		else printf "X%d := X%d > 0\n", i, i - 1 }' > chain.crasp
"$TALLY" compile -P chain.crasp > chain.json
grep -q '"formula":"#\[c[0-9]*\] < 1"' chain.json || fail "chain labels do not name components"
try 0 "$TALLY" simulate chain.json --trace -w aaaa
awk '/^  model/ { m = $0 } /^  logic/ { n++; split(m, a, " "); split($0, b, " ")
	for (i = 3; i <= 6; i++) if (a[i] != b[i]) bad++ }
	END { if (n < 60 || bad) exit 1 }' out.txt || fail "chain trace: $(head -c 500 out.txt)"

# ---- bounded memory and the limits ------------------------------------------
# Words from stdin run letter by letter: majority on 2^22 letters fits
# in 32 MB of address space (each letter cost 5 bytes: 20 MB more).  Not
# on a sanitizer or valgrind build (they reserve address space).
if ! ldd "$TALLY" 2> /dev/null | grep -q libasan && test -z "${TALLY_VALGRIND:-}" &&
	(ulimit -v 32000 && "$TALLY" --version) > /dev/null 2>&1; then
	{ head -c 4194304 /dev/zero | tr '\0' a; echo; } > long.txt
	status=0
	(ulimit -v 32000; exec "$TALLY" simulate base.json < long.txt) > out.txt 2> err.txt ||
		status=$?
	test "$status" = 0 || fail "2^22 letters under ulimit -v 32000: exit $status $(head -c 300 err.txt)"
	test "$(cut -f2 out.txt)" = accept || fail "2^22 letters: $(cut -f2 out.txt)"
fi
# Rows a model declares without spelling them out cost memory:
# --max-memory refuses them before the first letter.
BIG='{"query": {"rows": 1048576, "entries": []}, "key": {"rows": 1048576, "entries": []}, "value": {"weights": [], "bias": "0"}, "alibi_slope": "0", "out": 4}'
edit rows -e "s/\"out\": 3}\\]/\"out\": 3}, $BIG, $BIG, $BIG]/"
try 4 "$TALLY" simulate rows.json --max-memory=100M -w ab
err_has 'tally: limit: --max-memory reached before the first letter'
# --timeout while words run: verdicts already printed stay, the word cut
# short gets none (a RoPE head visits every key: 2^20 letters would take
# hours).
"$TALLY" compile -f "#[Q_a & MOD(7, 3)] < #[Q_b]" --pe=rope > rope7.json
{ echo ab; echo ba; head -c 1048576 /dev/zero | tr '\0' a; echo; } > words.txt
try 4 "$TALLY" simulate rope7.json --timeout=1 < words.txt
err_has 'tally: limit: --timeout=1 reached; 2 words run'
out_is "$("$TALLY" eval -f "#[Q_a & MOD(7, 3)] < #[Q_b]" -w ab -w ba)"
exit 0
