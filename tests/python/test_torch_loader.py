"""contrib/tally_torch.py refuses what `tally simulate` refuses, with one
error type, warns of positional encodings that are inexact in the
requested dtype, and gives scores in that dtype."""

import json
import warnings

import pytest

import tally
from conftest import cli

torch = pytest.importorskip("torch")
import tally_torch  # noqa: E402  (contrib/, on PYTHONPATH)

DYCK1 = json.loads(cli("compile", "-f", "dyck1")[1])


def edited(edit):
    j = json.loads(json.dumps(DYCK1))
    edit(j)
    return j


def component_formula(j, text):
    next(c for c in j["components"] if "formula" in c)["formula"] = text


BROKEN = {
    "formula not TL": lambda j: j.update(formula="#[Q_a <"),
    "formula off the alphabet": lambda j: j.update(formula="Q_a"),
    "component formula": lambda j: component_formula(j, "#[("),
    "empty alphabet": lambda j: j.update(alphabet=[],
                                         embedding=j["embedding"][:1]),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_refuses_what_simulate_refuses(name):
    j = edited(BROKEN[name])
    status, _, err = cli("simulate", "-w", "()", input=json.dumps(j))
    assert status == 2
    field = err.split("stdin: ", 1)[1].split(": ", 1)[0]
    with pytest.raises(tally_torch.ModelError) as e:
        tally_torch.load_model(j)
    assert str(e.value).split(": ", 1)[0] == field


@pytest.mark.parametrize("bad", [[1, 2], "nested"])
def test_one_error_type(tmp_path, bad):
    if bad == "nested":
        path = tmp_path / "deep.json"
        path.write_text("[" * 100000 + "]" * 100000)
        bad = str(path)
    with pytest.raises(tally_torch.ModelError):
        tally_torch.load_model(bad)


@pytest.mark.parametrize("pe, formula", [
    ("alibi", "#[Y Q_a] < #[Q_b]"), ("t5", "#[Y Q_a] < #[Q_b]"),
    ("rope", "MOD(2, 1) & #[Q_a] < #[Q_b]")])
@pytest.mark.parametrize("dtype, sem", [(torch.float32, "fp32"),
                                        (torch.float16, "fp16")])
def test_warns_of_inexact_encodings(pe, formula, dtype, sem):
    m = tally.compile(formula, pe=pe)
    _, out, _ = cli("simulate", "--check-against-formula",
                    "--semantics=ieee=" + sem, "--max-length=8", "--json",
                    input=m.text)
    r = json.loads(out.splitlines()[-1])
    assert r["result"] == "disagreement"
    with pytest.warns(UserWarning, match='"%s" is inexact .* at length %d'
                      % (pe, r["length"])):
        m.to_torch(dtype=dtype)


def test_no_warning_when_exact():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tally.compile("dyck1").to_torch(dtype=torch.float16)
        tally.compile("#[Y Q_a] < #[Q_b]", pe="alibi").to_torch()


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32,
                                   torch.bfloat16, torch.float16])
def test_scores_in_the_requested_dtype(dtype):
    m = tally.compile("dyck1").to_torch(dtype=dtype)
    assert m.scores(torch.tensor([[0, 1, 1, 0]])).dtype == dtype
